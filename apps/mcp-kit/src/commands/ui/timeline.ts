// Every JSON-RPC message of the workspace's sessions, in order, for the page's waterfall (bounded:
// a message over 256 KiB is kept as a stub, the oldest rows go past 20,000 or 64 MiB); and the
// NDJSON trace format both ways: what `--trace` with `--trace-messages` writes (`kind: "message"`
// entries) and the per-call entries of a plain `--trace` file (docs/architecture.md "Traces").

import type { EventHub } from './events.js'

export interface MessageRow {
  seq: number
  /** The workspace server the message belongs to, or `trace:<n>` for an opened trace file. */
  serverId: string
  /** The server as a trace names it (its command line or URL). */
  server: string
  ts: number
  direction: 'sent' | 'received'
  message: unknown
  /** `app`: a ui/* message between the page and an MCP App view (`sent`: to the view). */
  channel?: 'app'
}

/** A per-call entry of a plain `--trace` file (no messages recorded): one row of its own. */
export interface CallRow {
  seq: number
  serverId: string
  server: string
  ts: number
  call: Record<string, unknown>
}

export type TimelineRow = MessageRow | CallRow

/** Rows kept in memory, and their size in JSON characters; the oldest go first (an export holds what is kept). */
const keptRows = 20_000
const keptCharacters = 64 * 1024 * 1024
/** A message larger than this is kept as a stub naming its id, method and size: a server's sizes reach memory. */
const largestKept = 256 * 1024

export interface Timeline {
  rows(): TimelineRow[]
  record(
    serverId: string,
    server: string,
    direction: 'sent' | 'received',
    message: unknown,
    channel?: 'app',
  ): void
  /** Reads an NDJSON trace: rows under a new source id; lines that are no entry are counted. */
  importTrace(text: string, name: string): { source: string; rows: number; skipped: number }
  /** The kept rows as trace NDJSON (`kind: "message"` and per-call entries). */
  exportTrace(): string
}

/** The message, or a stub of it when it is too large to keep; and its size. */
function keepable(message: unknown): { message: unknown; size: number } {
  const size = JSON.stringify(message)?.length ?? 0
  if (size <= largestKept) return { message, size }
  const value = message as { id?: unknown; method?: unknown }
  const stub = { jsonrpc: '2.0', id: value.id, method: value.method, _truncated: `${size} characters` }
  return { message: stub, size: JSON.stringify(stub).length }
}

export function createTimeline(hub: EventHub): Timeline {
  const kept: TimelineRow[] = []
  const sizes: number[] = []
  let characters = 0
  let seq = 0
  let imports = 0
  const add = (row: TimelineRow, size: number) => {
    kept.push(row)
    sizes.push(size)
    characters += size
    while (kept.length > keptRows || (characters > keptCharacters && kept.length > 1)) {
      kept.shift()
      characters -= sizes.shift() ?? 0
    }
  }
  return {
    rows: () => [...kept],
    record(serverId, server, direction, message, channel) {
      const kept = keepable(message)
      const row: MessageRow = {
        seq: seq++,
        serverId,
        server,
        ts: Date.now(),
        direction,
        message: kept.message,
        ...(channel === undefined ? {} : { channel }),
      }
      add(row, kept.size)
      hub.publish({ type: 'message', row })
    },
    importTrace(text, name) {
      const source = `trace:${++imports}`
      let rows = 0
      let skipped = 0
      for (const line of text.split('\n')) {
        if (line.trim() === '') continue
        let entry: Record<string, unknown>
        try {
          entry = JSON.parse(line)
        } catch {
          skipped++
          continue
        }
        if (typeof entry !== 'object' || entry === null || typeof entry.ts_ms !== 'number') {
          skipped++
          continue
        }
        const server = typeof entry.server === 'string' ? entry.server : name
        if (entry.kind === 'message' && (entry.direction === 'sent' || entry.direction === 'received')) {
          const { message, size } = keepable(entry.message)
          const channel = entry.channel === 'app' ? { channel: 'app' as const } : {}
          add(
            {
              seq: seq++,
              serverId: source,
              server,
              ts: entry.ts_ms,
              direction: entry.direction,
              message,
              ...channel,
            },
            size,
          )
        } else if (typeof entry.kind === 'string') {
          add({ seq: seq++, serverId: source, server, ts: entry.ts_ms, call: entry }, line.length)
        } else {
          skipped++
          continue
        }
        rows++
      }
      hub.publish({ type: 'timeline-reset' })
      return { source, rows, skipped }
    },
    exportTrace() {
      return kept
        .map((row) =>
          'message' in row
            ? JSON.stringify({
                ts_ms: row.ts,
                kind: 'message',
                direction: row.direction,
                server: row.server,
                ...(row.channel === undefined ? {} : { channel: row.channel }),
                message: row.message,
              })
            : JSON.stringify(row.call),
        )
        .map((line) => `${line}\n`)
        .join('')
    },
  }
}
