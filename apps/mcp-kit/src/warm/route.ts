// The one place that decides whether a command runs in the warm-session daemon, called once by
// the executable (bin.ts) before the command runs. Only the commands that may run warm are looked
// at (session/warm-choice.ts names them); `--help`, `sessions` and every other command run here.
//
// - `--keep-alive D` decides by the rule alone: no profile is read, so the relay loads neither
//   yargs nor @mcp-kit/profiles.
// - A `@profile` reference: a running daemon decides (it resolves the profile and applies the
//   rule); with no daemon running, the profile is resolved here and the rule applied.
// Warm: this process relays the command to the daemon (warm-client.ts). Otherwise it runs here
// and connects directly; openSession keeps a server warm only inside the daemon.

import type { Io } from '../base/io.js'
import { keepAliveFlag, keepAliveFlagIn, keepAliveOf, warmCommands } from '../session/warm-choice.js'

/**
 * The profile a command line names: its first word that starts with `@` before any `--` (the
 * reference is usually the first word after the command, but `cat --tool x @p` names it later).
 */
function profileReferenceOf(argv: readonly string[]): string | undefined {
  for (const word of argv.slice(1)) {
    if (word === '--') return undefined
    if (word.startsWith('@')) return word
  }
  return undefined
}

/** True for a command that may run warm, without --help. */
export function mayRunWarm(argv: readonly string[]): boolean {
  if (!warmCommands.includes(argv[0] as string)) return false
  const separator = argv.indexOf('--')
  const own = separator === -1 ? argv : argv.slice(0, separator)
  return !own.includes('--help') && !own.includes('-h')
}

/** Runs the command in the daemon and returns its exit code, or 'here' when it is to run in this process. */
export async function route(argv: readonly string[], io: Io): Promise<number | 'here'> {
  if (!mayRunWarm(argv)) return 'here'
  try {
    const flag = keepAliveFlagIn(argv)
    if (flag !== undefined) {
      if (keepAliveFlag(flag) === undefined) return 'here'
      const { runWarm } = await import('./warm-client.js')
      return await runWarm(argv, io)
    }
    const reference = profileReferenceOf(argv)
    if (reference === undefined) return 'here'
    const { offerWarm, runWarm } = await import('./warm-client.js')
    const offered = await offerWarm(argv, io, reference)
    if (offered === 'not-warm') return 'here'
    if (offered !== 'no-daemon') return offered
    const { resolveForCli } = await import('../session/reference.js')
    const resolved = await resolveForCli(reference, io).catch(() => undefined)
    // A reference that does not resolve: the command says what is wrong.
    if (resolved === undefined) return 'here'
    return keepAliveOf(undefined, resolved.profile) === undefined ? 'here' : await runWarm(argv, io)
  } catch (error) {
    const { reportError } = await import('../output/report-error.js')
    return reportError(error, io, argv.includes('--verbose') || argv.includes('-v'))
  }
}
