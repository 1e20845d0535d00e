// Diagnostics on stderr, the way every command writes them: "mcp-kit: …", verbose ones only
// with --verbose, warnings unless --quiet. Everything here passes the sanitizer: stderr is a
// terminal more often than not, even when stdout is JSON for a script.

import type { Io } from '../base/io.js'
import { inFlagTerms } from './flag-wording.js'
import { sanitizeLine, sanitizeText } from './sanitize.js'

/**
 * Writes `mcp-kit: <message>` to stderr; the message may span lines (a crash report's stderr).
 * The client's option names in it become flags.
 */
export function writeDiagnostic(io: Io, message: string): void {
  io.stderr.write(`mcp-kit: ${sanitizeText(inFlagTerms(message))}\n`)
}

/** Diagnostics for one command: `verbose` (one line per event, --verbose only) and `warn`. */
export function diagnostics(io: Io, args: { verbose?: boolean; quiet?: boolean }) {
  return {
    verbose: (message: string) => {
      if (args.verbose) io.stderr.write(`mcp-kit: ${sanitizeLine(inFlagTerms(message))}\n`)
    },
    warn: (message: string) => {
      if (!args.quiet) writeDiagnostic(io, `warning: ${message}`)
    },
  }
}
