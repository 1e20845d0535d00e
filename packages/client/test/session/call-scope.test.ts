// @module-tag integration
// A call's own question handler and log sink (CallOptions.input, onLog), against mcp-kit's real
// server: two calls at once over one 2025-11-25 Streamable HTTP session each get the questions
// and log messages the server sends on their own response streams, and each answer reaches the
// call it was asked for. Over stdio nothing ties a message to a call: the session's handler has it.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createToolRegistry, type RunningHttpServer, startHttpServer } from '@mcp-kit/server'
import { afterAll, afterEach, expect, test } from 'vitest'
import { connect, type InputHandler, noEraCache, type Session } from '../../src/index.js'

const directory = mkdtempSync(join(tmpdir(), 'mcp-kit-call-scope-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

// A 2025-11-25 stdio server whose one tool asks for a PIN and returns the answer.
const stdioTeller = join(directory, 'teller.mjs')
writeFileSync(
  stdioTeller,
  `import { createInterface } from 'node:readline'
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\\n')
let call
createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line)
  if (message.method === 'initialize')
    send({ id: message.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'teller', version: '1.0.0' } } })
  else if (message.method === 'tools/list')
    send({ id: message.id, result: { tools: [{ name: 'pin', inputSchema: { type: 'object' } }] } })
  else if (message.method === 'tools/call') {
    call = message.id
    send({ id: 'question-1', method: 'elicitation/create', params: { message: 'PIN?', requestedSchema: { type: 'object', properties: { pin: { type: 'string' } } } } })
  } else if (message.id === 'question-1')
    send({ id: call, result: { content: [{ type: 'text', text: 'PIN: ' + message.result?.content?.pin }] } })
  else if (message.id !== undefined && message.method !== undefined)
    send({ id: message.id, error: { code: -32601, message: 'Method not found' } })
})
`,
)

const cleanups: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function tellerRegistry() {
  return createToolRegistry()
    .tool({
      name: 'pin',
      inputSchema: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'] },
      async handler({ who }, context) {
        await context.log('info', `working for ${who}`)
        await new Promise((resolve) => setTimeout(resolve, 200))
        const answer = await context.elicit({
          message: `PIN for ${who}?`,
          requestedSchema: { type: 'object', properties: { pin: { type: 'string' } }, required: ['pin'] },
        })
        return `${who}: ${answer.action === 'accept' ? answer.content?.pin : answer.action}`
      },
    })
    .tool({
      name: 'roots',
      handler: async (_args, context) => (await context.listRoots()).roots.map((root) => root.uri).join(' '),
    })
}

async function serving(): Promise<RunningHttpServer> {
  const server = await startHttpServer(tellerRegistry(), { port: 0, host: '127.0.0.1' })
  cleanups.push(() => server.close())
  return server
}

function text(result: { content: Array<{ type: string; text?: string }> }): string {
  return result.content.map((item) => item.text ?? '').join('')
}

/** Answers with `pin`, recording the questions it got. */
function answering(pin: string, asked: string[]): InputHandler {
  return {
    elicit: async (request) => {
      asked.push(request.message)
      return { action: 'accept', content: { pin } }
    },
  }
}

test("two calls at once over one 2025 HTTP session: each gets its own stream's questions and logs; the session's handler none", async () => {
  const server = await serving()
  const sessionAsked: string[] = []
  const sessionLogs: unknown[] = []
  const session: Session = await connect(
    { transport: 'http', url: server.url },
    {
      protocol: '2025-11-25',
      eraCache: noEraCache,
      input: answering('0000', sessionAsked),
      onLog: (message) => sessionLogs.push(message.data),
    },
  )
  cleanups.push(() => session.close())
  const asked = { alice: [] as string[], bob: [] as string[] }
  const logs = { alice: [] as unknown[], bob: [] as unknown[] }
  const [alice, bob] = await Promise.all(
    (['alice', 'bob'] as const).map((who, index) =>
      session.callTool(
        'pin',
        { who },
        {
          input: answering(index === 0 ? '1111' : '2222', asked[who]),
          onLog: (message) => logs[who].push(message.data),
        },
      ),
    ),
  )
  expect(text(alice as never)).toBe('alice: 1111')
  expect(text(bob as never)).toBe('bob: 2222')
  expect(asked).toEqual({ alice: ['PIN for alice?'], bob: ['PIN for bob?'] })
  expect(logs).toEqual({ alice: ['working for alice'], bob: ['working for bob'] })
  expect(sessionAsked).toEqual([])
  expect(sessionLogs).toEqual([])
})

test("over stdio nothing says which call asked: the session's handler answers", async () => {
  const sessionAsked: string[] = []
  const session = await connect(
    { transport: 'stdio', command: process.execPath, args: [stdioTeller] },
    { protocol: '2025-11-25', eraCache: noEraCache, input: answering('0000', sessionAsked) },
  )
  cleanups.push(() => session.close())
  const own: string[] = []
  const result = await session.callTool('pin', {}, { input: answering('1111', own) })
  expect(text(result as never)).toBe('PIN: 0000')
  expect(own).toEqual([])
  expect(sessionAsked).toEqual(['PIN?'])
})

test('a 2026 call answers its input rounds with its own handler', async () => {
  const server = await serving()
  const sessionAsked: string[] = []
  const session = await connect(
    { transport: 'http', url: server.url },
    { protocol: '2026-07-28', eraCache: noEraCache, input: answering('0000', sessionAsked) },
  )
  cleanups.push(() => session.close())
  const own: string[] = []
  const result = await session.callTool('pin', { who: 'bob' }, { input: answering('2222', own) })
  expect(text(result as never)).toBe('bob: 2222')
  expect(own).toEqual(['PIN for bob?'])
  expect(sessionAsked).toEqual([])
})

test("a call's question its own handler has no answer for goes to the session's handler", async () => {
  const server = await serving()
  const session = await connect(
    { transport: 'http', url: server.url },
    {
      protocol: '2025-11-25',
      eraCache: noEraCache,
      input: { ...answering('0000', []), roots: async () => [{ uri: 'file:///srv/shared' }] },
    },
  )
  cleanups.push(() => session.close())
  const result = await session.callTool('roots', {}, { input: answering('1111', []) })
  expect(text(result as never)).toBe('file:///srv/shared')
})
