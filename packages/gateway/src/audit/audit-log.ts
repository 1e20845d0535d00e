// The audit log: one NDJSON record per call, appended to a file (rotated by size) or written to
// stdout. Writing never blocks a call: records are queued to the stream, and when the stream
// falls far behind (a full disk, a stalled pipe) records are dropped and counted rather than
// held, and the next record that goes out says how many were lost.

import { createWriteStream, renameSync, statSync, type WriteStream } from 'node:fs'
import type { Writable } from 'node:stream'

/** One audit record (the gateway README, "Audit log", names each field). */
export interface AuditRecord {
  time: string
  principal: string
  /** The static token's name, when the call came with one. */
  token?: string
  session?: string
  upstream: string
  method: string
  name: string
  decision: 'allow' | 'deny' | 'limit'
  /** The policy rule (index) or limit (index) that decided; absent for the default. */
  rule?: number
  limit?: number
  outcome: 'ok' | 'tool_error' | 'error' | 'denied' | 'limited' | 'cancelled'
  error_code?: number | string
  duration_ms: number
  request_bytes: number
  response_bytes?: number
  trace_id?: string
  arguments?: unknown
  result?: unknown
  /** Records lost before this one because the log could not keep up. */
  dropped?: number
}

export interface AuditLogOptions {
  /** A file to append to, or '-' for stdout. */
  path: string
  /** Rotate the file past this many bytes (default 100 MiB; 0: never). */
  maxBytes?: number
  /** Rotated files kept (`FILE.1` newest … `FILE.N`; default 5). */
  keep?: number
  stdout?: Writable
  onError?: (error: Error) => void
}

export interface AuditLog {
  write(record: AuditRecord): void
  close(): Promise<void>
}

/** Past this much unwritten output, records are dropped instead of queued. */
const maximumBacklog = 16 * 1024 * 1024

export function openAuditLog(options: AuditLogOptions): AuditLog {
  const maxBytes = options.maxBytes ?? 100 * 1024 * 1024
  const keep = options.keep ?? 5
  const toStdout = options.path === '-'
  let size = 0
  let dropped = 0
  let failed = false
  let stream: Writable
  const report = (error: Error) => {
    if (!failed) options.onError?.(error)
    failed = true
  }
  const open = (): WriteStream => {
    try {
      size = statSync(options.path).size
    } catch {
      size = 0
    }
    const file = createWriteStream(options.path, { flags: 'a' })
    file.on('error', report)
    return file
  }
  stream = toStdout ? (options.stdout ?? process.stdout) : open()

  function rotate(): void {
    const old = stream
    old.end()
    try {
      for (let index = keep - 1; index >= 1; index--) {
        try {
          renameSync(`${options.path}.${index}`, `${options.path}.${index + 1}`)
        } catch {
          // That generation does not exist yet.
        }
      }
      if (keep > 0) renameSync(options.path, `${options.path}.1`)
    } catch (error) {
      report(error as Error)
    }
    stream = open()
  }

  return {
    write(record) {
      if (stream.writableLength > maximumBacklog) {
        dropped += 1
        return
      }
      if (dropped > 0) {
        record.dropped = dropped
        dropped = 0
      }
      const line = `${JSON.stringify(record)}\n`
      if (!toStdout && maxBytes > 0 && size > 0 && size + line.length > maxBytes) rotate()
      size += Buffer.byteLength(line)
      stream.write(line)
    },
    close() {
      if (toStdout) return Promise.resolve()
      return new Promise((resolve) => stream.end(() => resolve()))
    },
  }
}
