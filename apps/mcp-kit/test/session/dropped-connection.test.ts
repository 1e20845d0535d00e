// @module-tag integration
// How the CLI reports a call whose connection closed before any answer: a tool that is not safe to
// repeat fails with exit 3 and a message saying the call may or may not have run; a read-only tool's
// call goes out once more on a new connection and succeeds (--verbose says so). The server is
// @mcp-kit/server's handler behind a node:http server that closes the connection of chosen calls as
// they arrive; its counts show nothing ran twice.

import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createHttpHandler, createToolRegistry, type HttpHandler } from '@mcp-kit/server'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { records, runCli } from '../helpers/helpers.js'

const runs = new Map<string, number>()
/** Calls of these tools have their connection closed as they arrive (a count: how many more times). */
const toDrop = new Map<string, number>()
let server: Server
let handler: HttpHandler
let url: string

beforeAll(async () => {
  const counted = (name: string) => () => {
    runs.set(name, (runs.get(name) ?? 0) + 1)
    return `${name} ran`
  }
  const registry = createToolRegistry()
    .tool({ name: 'charge', handler: counted('charge') })
    .tool({ name: 'lookup', annotations: { readOnlyHint: true }, handler: counted('lookup') })
  handler = createHttpHandler(registry, {})
  server = createServer((request, response) => {
    const name = request.headers['mcp-name']
    const left = typeof name === 'string' ? (toDrop.get(name) ?? 0) : 0
    if (request.headers['mcp-method'] === 'tools/call' && left > 0) {
      toDrop.set(name as string, left - 1)
      request.socket.destroy()
      return
    }
    handler.handle(request, response)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `mcp+http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`
})

afterAll(async () => {
  await handler.close()
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

test('a call that is not safe to repeat: exit 3, and the message says it may or may not have run', async () => {
  toDrop.set('charge', 1)
  const result = await runCli(['cat', `${url}?tool=charge`])
  const message =
    /^tools\/call 'charge': the connection to http:\/\/127\.0\.0\.1:\d+\/mcp closed before an answer \(.+\); the call may or may not have run on the server\. It was not sent again: a tool call is repeated only when the tool is annotated idempotentHint or readOnlyHint$/
  expect(result.code).toBe(3)
  expect(result.stderr.split('\n')[0]?.replace(/^mcp-kit: /, '')).toMatch(message)
  // The error record on stdout says the same, with what a script can act on.
  expect(records(result.stdout)).toEqual([
    {
      error: {
        code: 'connect_failed',
        message: expect.stringMatching(message),
        details: { reason: 'closed_before_answer', resent: false, errno: expect.any(String) },
      },
    },
  ])
  expect(runs.get('charge')).toBeUndefined()
})

test('a read-only tool: sent once more on a new connection, and answered', async () => {
  toDrop.set('lookup', 1)
  const result = await runCli(['cat', `${url}?tool=lookup`, '--verbose'])
  expect(result.stderr).toMatch(
    /tools\/call: the connection to http:\/\/127\.0\.0\.1:\d+ closed before an answer \(.+\); sending it again on a new connection/,
  )
  expect(result.code).toBe(0)
  expect(records(result.stdout)).toEqual([{ type: 'text', text: 'lookup ran' }])
  expect(runs.get('lookup')).toBe(1)
})
