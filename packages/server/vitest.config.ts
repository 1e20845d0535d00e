import { createVitestConfig } from '@mcp-kit/vitest-config'

// Every file gets test/helpers/setup.ts, which closes what a test started. The unit files share
// their workers' modules (isolate: false), one worker per core: loading the SDK, zod and jose once
// per worker instead of once per file was most of their CPU, and they wait on sockets and timers
// more than they compute (CONTRIBUTING.md "Tests" has the figures).
export default createVitestConfig(
  { setupFiles: ['test/helpers/setup.ts'] },
  { unit: { isolate: false, maxWorkers: '100%' } },
)
