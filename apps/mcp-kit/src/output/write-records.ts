// JSON on stdout: NDJSON records (one per line) and JSON documents. Byte-exact on pipes and
// files; on a terminal, the characters JSON leaves raw that a terminal would act on (C1
// controls, bidi overrides) are written as \u escapes: the same value, read back by JSON.parse.

import { type Io, write } from '../base/io.js'
import type { Record_ } from './records.js'
import { jsonForTerminal } from './sanitize.js'

/** JSON text as stdout should carry it. */
export function jsonForStdout(io: Pick<Io, 'stdoutIsTTY'>, json: string): string {
  return io.stdoutIsTTY ? jsonForTerminal(json) : json
}

/** Writes records as NDJSON, respecting backpressure. */
export async function writeRecords(io: Io, records: readonly Record_[]): Promise<void> {
  if (records.length === 0) return
  const text = records.map((record) => JSON.stringify(record)).join('\n')
  await write(io.stdout, `${jsonForStdout(io, text)}\n`)
}

/** Writes one JSON document (`--format json`, `--raw`), pretty when `indent` is given. */
export async function writeJson(io: Io, value: unknown, indent?: number): Promise<void> {
  await write(io.stdout, `${jsonForStdout(io, JSON.stringify(value, null, indent))}\n`)
}
