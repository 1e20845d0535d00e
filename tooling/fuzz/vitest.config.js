import { createVitestConfig } from '@mcp-kit/vitest-config'

export default createVitestConfig(
  {
    include: ['test/**/*.test.js'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
  { tier: 'integration' },
)
