import { createVitestConfig } from '@mcp-kit/vitest-config'

export default createVitestConfig(
  {
    include: ['test/**/*.test.js'],
    // Packs and installs the packages once, for every test file.
    globalSetup: ['test/setup/packed-project.js'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
  { tier: 'integration' },
)
