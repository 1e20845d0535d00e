// Every JSON-RPC message of the workspace's sessions, in order, for the page's waterfall; and the
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

/** Rows kept in memory; the oldest go first (an export holds what is kept). */
const keptRows = 20_000
/** A message larger than this reaches the page as a stub saying so (the trace keeps it whole). */
const largestShown = 256 * 1024

export interface Timeline {
  rows(): TimelineRow[]
  record(serverId: string, server: string, direction: 'sent' | 'received', message: unknown): void
  /** Reads an NDJSON trace: rows under a new source id; lines that are no entry are counted. */
  importTrace(text: string, name: string): { source: string; rows: number; skipped: number }
  /** The kept rows as trace NDJSON (`kind: "message"` and per-call entries). */
  exportTrace(): string
}

function shown(row: TimelineRow): TimelineRow {
  if (!('message' in row)) return row
  const size = JSON.stringify(row.message)?.length ?? 0
  if (size <= largestShown) return row
  const value = row.message as { id?: unknown; method?: unknown }
  return { ...row, message: { id: value.id, method: value.method, _truncated: `${size} characters` } }
}

export function createTimeline(hub: EventHub): Timeline {
  const kept: TimelineRow[] = []
  let seq = 0
  let imports = 0
  const add = (row: TimelineRow) => {
    kept.push(row)
    if (kept.length > keptRows) kept.splice(0, kept.length - keptRows)
  }
  return {
    rows: () => kept.map(shown),
    record(serverId, server, direction, message) {
      const row: MessageRow = { seq: seq++, serverId, server, ts: Date.now(), direction, message }
      add(row)
      hub.publish({ type: 'message', row: shown(row) })
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
          add({
            seq: seq++,
            serverId: source,
            server,
            ts: entry.ts_ms,
            direction: entry.direction,
            message: entry.message,
          })
        } else if (typeof entry.kind === 'string') {
          add({ seq: seq++, serverId: source, server, ts: entry.ts_ms, call: entry })
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
                message: row.message,
              })
            : JSON.stringify(row.call),
        )
        .map((line) => `${line}\n`)
        .join('')
    },
  }
}
