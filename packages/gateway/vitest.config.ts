import { createVitestConfig } from '@mcp-kit/vitest-config'

// Hang bounds, not timing checks: the isolation tests start an authorization server, upstreams
// and SDK clients, which beside the whole suite on 2 cores took more than 30 s.
export default createVitestConfig({ testTimeout: 90_000, hookTimeout: 90_000 })
