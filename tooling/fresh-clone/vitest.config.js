import { createVitestConfig } from '@mcp-kit/vitest-config'

export default createVitestConfig(
  {
    include: ['test/**/*.test.js'],
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
  { tier: 'integration' },
)
