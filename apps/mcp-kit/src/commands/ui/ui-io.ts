// The Io the UI's backend hands to the CLI's session and command functions: no terminal, no
// stdin; what they would print goes to a callback, line by line.

import { Readable, Writable } from 'node:stream'
import type { Io } from '../../base/io.js'

/** A writable that calls `onLine` with each complete line written to it. */
export function lineSink(onLine: (line: string) => void): Writable {
  let partial = ''
  return new Writable({
    write(chunk, _encoding, done) {
      const text = partial + String(chunk)
      const lines = text.split('\n')
      partial = lines.pop() ?? ''
      for (const line of lines) onLine(line)
      done()
    },
    final(done) {
      if (partial !== '') onLine(partial)
      done()
    },
  })
}

export function uiIo(
  base: Pick<Io, 'env' | 'cwd' | 'signal'>,
  onStdout: (line: string) => void,
  onStderr: (line: string) => void,
): Io {
  return {
    stdin: Readable.from([]),
    stdout: lineSink(onStdout),
    stderr: lineSink(onStderr),
    env: base.env,
    cwd: base.cwd,
    stderrIsTTY: false,
    stdoutIsTTY: false,
    signal: base.signal,
  }
}
