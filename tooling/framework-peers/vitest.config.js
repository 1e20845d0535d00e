import { createVitestConfig } from '@mcp-kit/vitest-config'

export default createVitestConfig(
  {
    include: ['test/**/*.test.js'],
    // Hang bounds, not timing checks: a loaded machine can take a while to start many Node
    // servers at once.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // The tests mostly wait for the processes they start: two files side by side, at most four
    // concurrent checks each.
    maxWorkers: 2,
    maxConcurrency: 4,
  },
  { tier: 'integration' },
)
