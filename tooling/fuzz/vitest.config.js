import { createVitestConfig } from '@mcp-kit/vitest-config'

export default createVitestConfig(
  {
    include: ['test/**/*.test.js'],
    testTimeout: 300_000,
    hookTimeout: 60_000,
  },
  { tier: 'integration' },
)
