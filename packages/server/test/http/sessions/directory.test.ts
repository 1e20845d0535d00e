// The session directory (http/sessions/directory.ts): the one place the request path finds,
// opens and ends 2025 sessions. A session is found only for the principal that opened it; the
// per-client cap counts by the key the directory gives a request's client.
import type { IncomingMessage } from 'node:http'
import { afterEach, expect, test } from 'vitest'
import { createProtocolBinding } from '../../../src/http/protocol-binding.js'
import { SessionDirectory } from '../../../src/http/sessions/directory.js'
import type { SessionHub } from '../../../src/http/sessions/session.js'
import { createSessionTable, type SessionTable } from '../../../src/http/sessions/table.js'
import { createDemoRegistry } from '../../../src/registry/demo.js'
import { createRuntime } from '../../../src/runtime/runtime.js'
import { createServerCore } from '../../../src/server/core.js'

const tables: SessionTable[] = []

afterEach(() => {
  for (const table of tables.splice(0)) {
    table.closeAll()
    table.dispose()
  }
})

function directory(options: { maxSessionsPerClient?: number; clientKey?: () => string } = {}) {
  const reported: unknown[] = []
  const table = createSessionTable({
    maxSessions: 10,
    maxSessionsPerClient: options.maxSessionsPerClient ?? 10,
    idleMs: 60_000,
    maxLifetimeMs: 0,
    report: (error) => reported.push(error),
    now: Date.now,
  })
  tables.push(table)
  const hub: SessionHub = {
    retryMs: 1000,
    maximumLoggedEvents: 100,
    maximumLoggedBytes: 1 << 20,
    liveStreams: new Set(),
    exchangeEnded: () => {},
    now: Date.now,
  }
  let next = 0
  const sessions = new SessionDirectory({
    table,
    hub,
    connect: createProtocolBinding(createServerCore(createRuntime(createDemoRegistry()))),
    shared: undefined,
    createSessionId: () => `session-${++next}`,
    clientKey: options.clientKey,
    report: (error) => reported.push(error),
  })
  return { sessions, table, reported }
}

const fromAddress = (address: string) => ({ socket: { remoteAddress: address } }) as IncomingMessage

test("create puts a session in the table; lookup finds it for its owner only, as for no one else's", async () => {
  const { sessions, table } = directory()
  const alices = await sessions.create('identity:alice', 'alice')
  const anonymous = await sessions.create('address:127.0.0.1', undefined)
  expect(table.size).toBe(2)
  expect(sessions.lookup(alices.id, 'alice')).toBe(alices)
  expect(sessions.lookup(alices.id, 'mallory')).toBeUndefined()
  expect(sessions.lookup(alices.id, undefined)).toBeUndefined()
  expect(sessions.lookup(anonymous.id, undefined)).toBe(anonymous)
  expect(sessions.lookup(anonymous.id, 'alice')).toBeUndefined()
  expect(sessions.lookup('session-404', 'alice')).toBeUndefined()
})

test('delete ends the session: it is no longer found and its transport is closed', async () => {
  const { sessions, table } = directory()
  const entry = await sessions.create('address:127.0.0.1', undefined)
  await sessions.delete(entry)
  expect(sessions.lookup(entry.id, undefined)).toBeUndefined()
  expect(table.size).toBe(0)
  expect(entry.transport.closed).toBe(true)
})

test('the client key: the principal when there is one, else the address (IPv6 per /64), else the custom key', () => {
  const { sessions } = directory()
  expect(sessions.clientKey(fromAddress('127.0.0.2'), undefined, 'alice')).toBe('identity:alice')
  expect(sessions.clientKey(fromAddress('127.0.0.2'), undefined, undefined)).toBe('address:127.0.0.2')
  expect(sessions.clientKey(fromAddress('2001:db8:1:2:3::9'), undefined, undefined)).toBe(
    'address:2001:db8:1:2::/64',
  )
  const custom = directory({ clientKey: () => 'tenant-7' }).sessions
  expect(custom.clientKey(fromAddress('127.0.0.2'), undefined, 'alice')).toBe('tenant-7')
})

test('refusal: a client at its own cap is refused, another client is not', async () => {
  const { sessions } = directory({ maxSessionsPerClient: 1 })
  expect(sessions.refusal('identity:alice')).toBeUndefined()
  await sessions.create('identity:alice', 'alice')
  expect(sessions.refusal('identity:alice')).toMatchObject({ limit: 'client' })
  expect(sessions.refusal('identity:bob')).toBeUndefined()
})
