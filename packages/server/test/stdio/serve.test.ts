// serveStdio in-process over pipes: newline-delimited JSON-RPC, shutdown when stdin ends, and
// a graceful stop on abort that lets a call in flight finish.
import { PassThrough } from 'node:stream'
import { expect, test } from 'vitest'
import { createDemoRegistry } from '../../src/registry/demo.js'
import { createToolRegistry } from '../../src/registry/registry.js'
import { serveStdio } from '../../src/stdio/serve.js'
import { eventually } from '../helpers/http.js'

function pipes() {
  const stdin = new PassThrough()
  const stdout = new PassThrough()
  const lines: unknown[] = []
  let buffer = ''
  stdout.setEncoding('utf8')
  stdout.on('data', (chunk: string) => {
    buffer += chunk
    let newline = buffer.indexOf('\n')
    while (newline !== -1) {
      lines.push(JSON.parse(buffer.slice(0, newline)))
      buffer = buffer.slice(newline + 1)
      newline = buffer.indexOf('\n')
    }
  })
  const send = (message: unknown) => stdin.write(`${JSON.stringify(message)}\n`)
  return { stdin, stdout, lines, send, rest: () => buffer }
}

const initialize = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } },
}

test('answers over stdin/stdout and resolves when stdin ends', async () => {
  const { stdin, stdout, lines, send, rest } = pipes()
  const serving = serveStdio(createDemoRegistry(), { stdin, stdout })
  send(initialize)
  send({ jsonrpc: '2.0', method: 'notifications/initialized' })
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'echo', arguments: { message: 'over a pipe' } },
  })
  send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: {} } })
  await eventually(() => lines.length === 3)
  // Calls run concurrently: answers come in completion order.
  lines.sort((a, b) => (a as { id: number }).id - (b as { id: number }).id)
  expect(lines[0]).toMatchObject({
    id: 0,
    result: { protocolVersion: '2025-11-25', serverInfo: { name: 'mcp-kit' } },
  })
  expect(lines[1]).toEqual({
    jsonrpc: '2.0',
    id: 1,
    result: { content: [{ type: 'text', text: 'over a pipe' }] },
  })
  expect(lines[2]).toMatchObject({ id: 2, result: { isError: true } })
  stdin.end()
  await serving
  expect(rest()).toBe('')
})

test('an abort waits for the call in flight, answers it, then stops', async () => {
  let release: () => void = () => {}
  const registry = createToolRegistry().tool({
    name: 'slow',
    handler: () => new Promise<string>((resolve) => (release = () => resolve('finished'))),
  })
  const { stdin, stdout, lines, send } = pipes()
  const controller = new AbortController()
  let done = false
  const serving = serveStdio(registry, { stdin, stdout, signal: controller.signal }).then(() => {
    done = true
  })
  send(initialize)
  send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow' } })
  await eventually(() => lines.length === 1)
  controller.abort()
  await new Promise((resolve) => setTimeout(resolve, 50))
  expect(done).toBe(false)
  release()
  await serving
  expect(lines[1]).toEqual({
    jsonrpc: '2.0',
    id: 1,
    result: { content: [{ type: 'text', text: 'finished' }] },
  })
})

test('requests piped in before stdin closes are all answered', async () => {
  const registry = createToolRegistry().tool({
    name: 'slow-echo',
    handler: async ({ message }) => {
      await new Promise((resolve) => setTimeout(resolve, 30))
      return String(message)
    },
  })
  const { stdin, stdout, lines, send } = pipes()
  const serving = serveStdio(registry, { stdin, stdout })
  send(initialize)
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'slow-echo', arguments: { message: 'one' } },
  })
  send({
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'slow-echo', arguments: { message: 'two' } },
  })
  stdin.end()
  await serving
  expect(lines.slice(1)).toHaveLength(2)
})
