// @module-tag integration
// Reading and listing resources: a URI the server does not have is resource_not_found in both
// eras (2025-11-25 servers answer -32002, 2026-07-28 ones -32602 naming the URI), and a listing's
// `limit` holds whatever the server's page size.

import { createToolRegistry, startHttpServer } from '@mcp-kit/server'
import { expect, test } from 'vitest'
import { connect, noEraCache } from '../../src/index.js'
import { failureOf, fixture } from '../helpers/processes.js'
import { answerInitialize, answerJson, startRawServer } from '../helpers/raw-http.js'

test('a missing resource of a 2025-11-25 server (-32002) is resource_not_found', async () => {
  const session = await connect(fixture('basic'), { protocol: '2025-11-25' })
  try {
    const failure = await failureOf(session.readResource('fixture://nothing'))
    expect(failure).toMatchObject({ code: 'resource_not_found', details: { rpcCode: -32002 } })
    expect(failure.message).toBe("resources/read 'fixture://nothing': Resource fixture://nothing not found")
  } finally {
    await session.close()
  }
})

test('a missing resource of a 2026-07-28 server (-32602 with the URI) is resource_not_found', async () => {
  const registry = createToolRegistry().resource({ uri: 'demo://here', name: 'here', read: () => 'here' })
  const server = await startHttpServer(registry)
  const session = await connect({ transport: 'http', url: server.url }, { eraCache: noEraCache })
  try {
    expect(session.protocolVersion).toBe('2026-07-28')
    const failure = await failureOf(session.readResource('demo://gone'))
    expect(failure).toMatchObject({
      code: 'resource_not_found',
      details: { rpcCode: -32602, data: { uri: 'demo://gone' } },
    })
    expect((await session.readResource('demo://here')).contents).toHaveLength(1)
  } finally {
    await session.close()
    await server.close()
  }
})

test('listResources({ limit }) gives at most that many, however the server pages', async () => {
  const resources = Array.from({ length: 12 }, (_, index) => ({ uri: `raw://r${index}`, name: `r${index}` }))
  const server = await startRawServer((request, response) => {
    const message = request.json as { id?: number; method?: string; params?: { cursor?: string } } | undefined
    if (request.method !== 'POST' || message?.id === undefined) return void response.writeHead(202).end()
    if (message.method === 'initialize') return answerInitialize(response, message.id)
    if (message.method !== 'resources/list')
      return answerJson(response, { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'no' } })
    const start = Number(message.params?.cursor ?? 0)
    const next = start + 3
    answerJson(response, {
      jsonrpc: '2.0',
      id: message.id,
      result: {
        resources: resources.slice(start, next),
        ...(next < resources.length ? { nextCursor: String(next) } : {}),
      },
    })
  })
  const session = await connect(
    { transport: 'http', url: server.url },
    { eraCache: noEraCache, protocol: '2025-11-25' },
  )
  try {
    expect((await session.listResources({ limit: 5 })).map((resource) => resource.uri)).toEqual(
      resources.slice(0, 5).map((resource) => resource.uri),
    )
    const pages = server.requests.filter((request) => request.json?.method === 'resources/list')
    expect(pages).toHaveLength(2)
    expect(await session.listResources()).toHaveLength(12)
  } finally {
    await session.close()
    await server.close()
  }
})
