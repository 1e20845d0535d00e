// The yargs CLI: parses flags, runs one command, and turns every failure into a one-line message
// and a documented exit code. Commands load their heavy code lazily, so `--help` stays fast; the
// plainest `inspect` skips yargs altogether (plain-inspect.ts).

import { readFileSync } from 'node:fs'
import type { Argv } from 'yargs'
import { CliError, isKitError } from './errors.js'
import { exitCodes } from './exit-codes.js'
import { type Io, processIo } from './io.js'
import { plainInspect } from './plain-inspect.js'
import { interruptSignal } from './process-signals.js'
import { reportError } from './report-error.js'

let knownVersion: string | undefined

function version(): string {
  // Read once: the warm-session daemon runs many commands in one process.
  knownVersion ??= (
    JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
  ).version
  return knownVersion
}

/**
 * yargs renders the whole help text right after dispatching a command, in case an async handler
 * fails and usage must be shown. Our .fail() never shows usage, so that work (~25 ms of every
 * command's start, tooling/bench) is skipped. Reaches into yargs internals, hence the guards.
 */
function skipHelpRendering(parser: unknown): void {
  const internals = (
    parser as { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } } }
  ).getInternalMethods?.()
  const usage = internals?.getUsageInstance?.()
  if (usage && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => {}
}

/** Runs the CLI on `argv` (without node and script) and returns the exit code. */
export async function run(argv: readonly string[], io: Io): Promise<number> {
  const inspect = plainInspect(argv)
  if (inspect !== undefined) {
    try {
      const { runInspect } = await import('../commands/inspect/run-inspect.js')
      return await runInspect(inspect, io)
    } catch (error) {
      if (io.signal.aborted && !isKitError(error)) return exitCodes.interrupted
      return reportError(error, io, false)
    }
  }
  const [{ default: yargs }, { commands }] = await Promise.all([
    import('yargs'),
    import('../commands/index.js'),
  ])
  const result = { exitCode: exitCodes.ok }
  const parser: Argv = yargs([...argv])
    .scriptName('mcp-kit')
    .usage('$0 <command> [options]\n\nInspect, call, profile and serve Model Context Protocol servers.')
    .command(commands as never)
    .demandCommand(1, 'Say which command to run.')
    .recommendCommands()
    .strict()
    .version(version())
    .alias('version', 'V')
    .help()
    .alias('help', 'h')
    .wrap(Math.min(110, process.stdout.columns || 100))
    .epilogue(
      'Exit codes: 0 ok, 1 tool or server error, 2 usage or invalid reference/arguments, 3 launch or connect failure, 4 timeout, 5 schema changed, 6 input required, 7 login required, 130 interrupted.',
    )
    .exitProcess(false)
    // Throwing stops yargs from running the handler after a validation failure.
    .fail((message, error) => {
      throw error ?? new CliError('usage', `${message}\nRun 'mcp-kit --help' for usage.`)
    })
  try {
    skipHelpRendering(parser)
    await parser.parseAsync([...argv], { io, result })
  } catch (error) {
    if ((error as Error)?.name === 'WarmHandoff' && io.warm === undefined) {
      // A profile asks for a keep-alive: the daemon runs the command, from the start.
      const { runWarm } = await import('../warm/warm-client.js')
      return runWarm(argv, io)
    }
    if (io.signal.aborted && !isKitError(error)) return exitCodes.interrupted
    return reportError(error, io, argv.includes('--verbose') || argv.includes('-v'))
  }
  return result.exitCode
}

/** The process entry: wires signals (Ctrl-C ends the command after cleaning up its server) and exits. */
export async function main(argv: readonly string[]): Promise<void> {
  const code = await run(argv, processIo(interruptSignal()))
  // The command decides: an interrupted call reports 130 itself; `serve` shuts down cleanly and exits 0.
  process.exitCode = code
}
