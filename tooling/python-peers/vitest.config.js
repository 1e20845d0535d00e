import { createVitestConfig } from '@mcp-kit/vitest-config'

export default createVitestConfig(
  {
    include: ['test/**/*.test.js'],
    // Hang bounds, not timing checks: beside the whole suite on 2 cores a Python peer took 40 s
    // to import FastMCP (about 1.5 s of CPU alone).
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // The test files mostly wait for the processes they start (the CLI, Python peers): two files
    // side by side, at most three concurrent tests each, keep a loaded machine from starving them.
    maxWorkers: 2,
    maxConcurrency: 3,
  },
  { tier: 'integration' },
)
