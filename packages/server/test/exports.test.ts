// Pins the public API: a new export is a conscious act (update this list with it).
import { expect, test } from 'vitest'
import * as server from '../src/index.js'

test('the public runtime exports are exactly these', () => {
  expect(Object.keys(server).sort()).toEqual([
    'ProtocolServer',
    'RpcFailure',
    'ServerError',
    'createDemoRegistry',
    'createHttpHandler',
    'createOAuthResource',
    'createProtocolServer',
    'createRuntime',
    'createToolRegistry',
    'isToolRegistry',
    'memoryStore',
    'memoryTaskStore',
    'principalOf',
    'redactedUrl',
    'redisStore',
    'redisUrlProblem',
    'serveStdio',
    'startHttpServer',
  ])
})
