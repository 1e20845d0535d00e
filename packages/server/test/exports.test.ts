// Pins the public API: a new export is a conscious act (update this list with it).
import { expect, test } from 'vitest'
import * as server from '../src/index.js'

test('the public runtime exports are exactly these', () => {
  expect(Object.keys(server).sort()).toEqual([
    'ProtocolServer',
    'RpcFailure',
    'ServerError',
    'createHttpHandler',
    'createOAuthResource',
    'createProtocolServer',
    'createRuntime',
    'createToolRegistry',
    'defineApp',
    'isToolRegistry',
    'memoryStore',
    'memoryTaskStore',
    'principalOf',
    'redisStore',
    'serveStdio',
    'startHttpServer',
  ])
})

test("the internal entry (for mcp-kit's own packages, not covered by semver) exports exactly these", async () => {
  const internal = await import('../src/internal.js')
  expect(Object.keys(internal).sort()).toEqual([
    'createDemoRegistry',
    'createToolRegistry',
    'redactedUrl',
    'redisUrlProblem',
    'sealJson',
    'serveStdio',
  ])
})
