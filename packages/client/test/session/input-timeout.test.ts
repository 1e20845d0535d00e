// @module-tag integration
// A server's question that the client's handler never answers (a person who walked away from the
// prompt) is answered with a JSON-RPC error after `inputTimeoutMs`, against a real 2025-11-25
// stdio server that reports on stderr what came back; the call waiting on it fails saying why,
// and the handler's signal aborts so its prompt can close.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, expect, test, vi } from 'vitest'
import { connect, noEraCache, type Session } from '../../src/index.js'
import { failureOf } from '../helpers/processes.js'

const directory = mkdtempSync(join(tmpdir(), 'mcp-kit-input-timeout-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

// A 2025-11-25 server whose one tool asks the client to confirm and waits for the answer.
const serverPath = join(directory, 'asker.mjs')
writeFileSync(
  serverPath,
  `import { createInterface } from 'node:readline'
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\\n')
let call
createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line)
  if (message.method === 'initialize')
    send({ id: message.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'asker', version: '1.0.0' } } })
  else if (message.method === 'tools/list')
    send({ id: message.id, result: { tools: [{ name: 'ask', inputSchema: { type: 'object' } }] } })
  else if (message.method === 'tools/call') {
    call = message.id
    send({ id: 'question-1', method: 'elicitation/create', params: { message: 'Proceed?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } } })
  } else if (message.id === 'question-1') {
    process.stderr.write('answered: ' + JSON.stringify(message.error ?? message.result) + '\\n')
    send({ id: call, result: { content: [{ type: 'text', text: 'done' }] } })
  } else if (message.id !== undefined && message.method !== undefined)
    send({ id: message.id, error: { code: -32601, message: 'Method not found' } })
})
`,
)

const open = new Set<Session>()
afterEach(async () => {
  for (const session of open) await session.close()
  open.clear()
})

test('a question not answered within inputTimeoutMs is answered with an error; the call fails saying so', async () => {
  const stderr: string[] = []
  let handlerAborted: unknown
  const session = await connect(
    { transport: 'stdio', command: process.execPath, args: [serverPath] },
    {
      protocol: '2025-11-25',
      eraCache: noEraCache,
      callTimeoutMs: 30_000,
      inputTimeoutMs: 500,
      onStderr: (line) => stderr.push(line),
      input: {
        // Never answers, as a prompt nobody types into.
        elicit: (_request, context) =>
          new Promise(() => {
            context.signal.addEventListener('abort', () => {
              handlerAborted = context.signal.reason
            })
          }),
      },
    },
  )
  open.add(session)
  const started = Date.now()
  const failure = await failureOf(session.callTool('ask', {}))
  expect(failure.code).toBe('timeout')
  expect(failure.message).toMatch(/^tools\/call 'ask': input question timed out after 0\.5 s/)
  expect(failure.details).toMatchObject({ limit: 'input', timeoutMs: 500 })
  expect(Date.now() - started).toBeLessThan(10_000)
  // The server got a JSON-RPC error for its question, not silence.
  await expect
    .poll(() => stderr.join('\n'), { timeout: 5000 })
    .toMatch(/answered: \{"code":-32603,"message":"input question timed out after 0\.5 s/)
  expect(String((handlerAborted as Error | undefined)?.message)).toMatch(/input question timed out/)
}, 20_000)

test('an answer in time is used as before', async () => {
  const stderr: string[] = []
  const session = await connect(
    { transport: 'stdio', command: process.execPath, args: [serverPath] },
    {
      protocol: '2025-11-25',
      eraCache: noEraCache,
      inputTimeoutMs: 5000,
      onStderr: (line) => stderr.push(line),
      input: { elicit: async () => ({ action: 'accept', content: { ok: true } }) },
    },
  )
  open.add(session)
  const result = await session.callTool('ask', {})
  expect(result.content).toEqual([{ type: 'text', text: 'done' }])
  // The server's stderr and its answer travel on different pipes: wait for the line.
  await vi.waitFor(() =>
    expect(stderr.join('\n')).toMatch(/answered: \{"action":"accept","content":\{"ok":true\}\}/),
  )
})
