import { createVitestConfig } from '@mcp-kit/vitest-config'

export default createVitestConfig()
