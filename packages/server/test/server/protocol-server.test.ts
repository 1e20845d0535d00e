// A ProtocolServer takes the era a transport classified a message into (HTTP classifies each
// POSTed message once, protocol/era.ts) and classifies only what arrives unclassified (stdio).
import { expect, test } from 'vitest'
import type { RpcMessage } from '../../src/protocol/rpc.js'
import { createDemoRegistry } from '../../src/registry/demo.js'
import { createRuntime } from '../../src/runtime/runtime.js'
import type { MessageExtra } from '../../src/server/legacy-session.js'
import { createProtocolServer, type MessageTransport } from '../../src/server/protocol-server.js'

/** A transport the test drives: what it delivers, and the answers the server sends. */
function testTransport() {
  const sent: RpcMessage[] = []
  const transport: MessageTransport = {
    async start() {},
    async send(message) {
      sent.push(message)
    },
    async close() {
      transport.onclose?.()
    },
  }
  const deliver = (message: RpcMessage, extra?: MessageExtra) => transport.onmessage?.(message, extra)
  return { transport, sent, deliver }
}

const discover = {
  jsonrpc: '2.0',
  id: 1,
  method: 'server/discover',
  params: {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
} as const

async function answerTo(extra: MessageExtra | undefined): Promise<RpcMessage> {
  const { transport, sent, deliver } = testTransport()
  const server = createProtocolServer(createRuntime(createDemoRegistry()))
  await server.connect(transport)
  deliver(discover, extra)
  await expect.poll(() => sent.length).toBe(1)
  await server.close()
  return sent[0] as RpcMessage
}

test('a request nobody classified is classified here: its _meta claim makes it 2026-07-28', async () => {
  const answer = await answerTo(undefined)
  expect(answer).toMatchObject({
    id: 1,
    result: { supportedVersions: ['2026-07-28'], resultType: 'complete' },
  })
})

test("the transport's classification is taken as it is: a message it put in a 2025 session goes there", async () => {
  // The same message, classified 2025 by its transport: the session answers, and it knows no server/discover.
  const answer = await answerTo({ era: 'legacy' })
  expect(answer).toMatchObject({ id: 1, error: { code: -32601 } })
  expect(await answerTo({ era: 'modern' })).toMatchObject({ result: { resultType: 'complete' } })
})
