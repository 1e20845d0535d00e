// Writes NDJSON records to stdout, one per line, respecting backpressure.

import { write } from './io.js'
import type { Record_ } from './records.js'

export async function writeRecords(
  stream: NodeJS.WritableStream,
  records: readonly Record_[],
): Promise<void> {
  if (records.length === 0) return
  await write(stream as never, `${records.map((record) => JSON.stringify(record)).join('\n')}\n`)
}
