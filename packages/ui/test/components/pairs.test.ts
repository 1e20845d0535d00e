// The timeline's pairing: a request with its answer by server, direction and id — an MCP App
// view's messages (channel `app`) apart from the server's, whose ids they share.

import { expect, it } from 'vitest'
import { pairRows } from '../../web/src/components/pairs.js'
import type { TimelineRow } from '../../web/src/types.js'

const row = (seq: number, direction: 'sent' | 'received', message: Record<string, unknown>, app = false) =>
  ({
    seq,
    serverId: 's1',
    server: 'x',
    ts: seq,
    direction,
    message,
    ...(app ? { channel: 'app' } : {}),
  }) as TimelineRow

it("pairs a view's request with the page's answer, and a server call with its own, though their ids are the same", () => {
  const pairs = pairRows([
    row(1, 'received', { jsonrpc: '2.0', id: 1, method: 'ui/initialize' }, true),
    row(2, 'sent', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo' } }),
    row(3, 'received', { jsonrpc: '2.0', id: 1, result: { content: [] } }),
    row(4, 'sent', { jsonrpc: '2.0', id: 1, result: { protocolVersion: '2026-01-26' } }, true),
  ])
  expect(pairs.map((pair) => [pair.method, pair.app ?? false, pair.end])).toEqual([
    ['ui/initialize', true, 4],
    ['tools/call', false, 3],
  ])
})
