// What every command handler receives besides its flags: the Io to use and a place for its exit code.

import type { Io } from './io.js'

export interface CommandContext {
  io: Io
  result: { exitCode: number }
  /** The words after `--`: a stdio server's command line, when one was given. */
  serverCommand?: string[]
}
