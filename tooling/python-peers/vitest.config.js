import { createVitestConfig } from '@mcp-kit/vitest-config'

export default createVitestConfig(
  {
    include: ['test/**/*.test.js'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The test files mostly wait for the processes they start (the CLI, Python peers): run them side
    // by side even on 2 cores, where vitest would otherwise run one file at a time.
    maxWorkers: 3,
  },
  { tier: 'integration' },
)
