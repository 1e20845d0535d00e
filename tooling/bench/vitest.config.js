import { createVitestConfig } from '@mcp-kit/vitest-config'

export default createVitestConfig(
  {
    include: ['test/**/*.test.js'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
  { tier: 'integration' },
)
