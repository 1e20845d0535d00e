// Auth in front, credentials behind: the gateway checks its clients' token, and each upstream
// gets its own credentials — never the client's token.

import { createToolRegistry, startHttpServer } from '@mcp-kit/server'
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterEach, expect, test } from 'vitest'
import { createGateway } from '../../src/index.js'

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

test("a client's token is checked by the gateway and never reaches an upstream, which gets its own", async () => {
  const seen: Array<string | undefined> = []
  const upstream = await startHttpServer(
    createToolRegistry().tool({
      name: 'whoami',
      handler: (_args, context) => {
        seen.push(context.authInfo?.token)
        return 'ok'
      },
    }),
    { token: 'upstream-secret' },
  )
  closers.push(() => upstream.close())
  const gateway = createGateway({
    upstreams: [
      {
        name: 'remote',
        server: { transport: 'http', url: upstream.url },
        connect: { headers: { Authorization: 'Bearer upstream-secret' } },
      },
    ],
  })
  await gateway.start()
  closers.push(() => gateway.close())
  const front = await startHttpServer(gateway.registry, { token: 'client-secret' })
  closers.push(() => front.close())

  const refused = await fetch(front.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  })
  expect(refused.status).toBe(401)

  const client = new ClientV1({ name: 'c', version: '1' })
  await client.connect(
    new HttpTransportV1(new URL(front.url), {
      requestInit: { headers: { Authorization: 'Bearer client-secret' } },
    }),
  )
  closers.push(() => client.close())
  await client.callTool({ name: 'remote__whoami', arguments: {} })
  await client.callTool({ name: 'remote__whoami', arguments: {} })
  expect(seen).toEqual(['upstream-secret', 'upstream-secret'])
})
