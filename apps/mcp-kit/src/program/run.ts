// The program: runs one command line — in the CLI's process or in the warm-session daemon, which
// is handed `run` by the executable (bin.ts) — and turns every failure into a one-line message and
// a documented exit code. yargs parses the flags; commands load their heavy code lazily, so
// `--help` stays fast; the plainest `inspect`, `serve --openapi` and `ui` skip yargs altogether
// (plain-*.ts). Whether a command runs warm was decided before (warm/route.ts).

import { readFileSync } from 'node:fs'
import type { Argv } from 'yargs'
import { CliError, isKitError } from '../base/errors.js'
import { exitCodes } from '../base/exit-codes.js'
import type { Io } from '../base/io.js'
import { reportError } from '../output/report-error.js'
import { plainInspect } from './plain-inspect.js'
import { plainServe } from './plain-serve.js'
import { plainUi } from './plain-ui.js'

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

/**
 * Splits off a server's command line: everything after the first `--`, word for word. yargs
 * never sees it, so `-- node server.js 007 --help` keeps its strings (no number parsing) and its
 * options (they are the server's, not ours).
 */
export function splitServerCommand(argv: readonly string[]): { own: string[]; serverCommand?: string[] } {
  const separator = argv.indexOf('--')
  if (separator === -1) return { own: [...argv] }
  return { own: argv.slice(0, separator), serverCommand: argv.slice(separator + 1) }
}

/** The yargs program for `own` (the command line without a server's), ready to parse. */
export async function program(own: readonly string[], serverCommand: string[] | undefined): Promise<Argv> {
  const [{ default: yargs }, { commandLineCommands, commands }] = await Promise.all([
    import('yargs'),
    import('../commands/index.js'),
  ])
  return (
    yargs([...own])
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
      .middleware((parsed) => {
        if (serverCommand === undefined) return
        const [first, second] = parsed._.map(String)
        if (
          !commandLineCommands.includes(first ?? '') &&
          !commandLineCommands.includes(`${first} ${second}`)
        ) {
          throw new CliError(
            'usage',
            `'mcp-kit ${[first, second].filter(Boolean).join(' ')}' takes no command line after --; ${commandLineCommands.map((name) => `'${name}'`).join(', ')} do`,
          )
        }
      })
      // Throwing stops yargs from running the handler after a validation failure.
      .fail((message, error) => {
        throw error ?? new CliError('usage', `${message}\nRun 'mcp-kit --help' for usage.`)
      })
  )
}

/** Runs the command `parser` holds and returns its exit code; every failure is reported here. */
export async function runProgram(
  parser: Argv,
  own: readonly string[],
  serverCommand: string[] | undefined,
  io: Io,
): Promise<number> {
  const result = { exitCode: exitCodes.ok }
  try {
    skipHelpRendering(parser)
    await parser.parseAsync([...own], { io, result, serverCommand })
  } catch (error) {
    if (io.signal.aborted && !isKitError(error)) return exitCodes.interrupted
    return reportError(error, io, own.includes('--verbose') || own.includes('-v'))
  }
  return result.exitCode
}

/** Runs the CLI on `argv` (without node and script) and returns the exit code. */
export async function run(argv: readonly string[], io: Io): Promise<number> {
  const inspect = plainInspect(argv)
  if (inspect !== undefined) {
    try {
      const { runInspect } = await import('../commands/shared/inspect/run-inspect.js')
      return await runInspect(inspect, io)
    } catch (error) {
      if (io.signal.aborted && !isKitError(error)) return exitCodes.interrupted
      return reportError(error, io, false)
    }
  }
  const serve = plainServe(argv)
  const ui = serve === undefined ? plainUi(argv) : undefined
  if (serve !== undefined || ui !== undefined) {
    try {
      if (ui !== undefined) {
        const { runUi } = await import('../commands/ui/run-ui.js')
        return await runUi(ui, io)
      }
      const { runServe } = await import('../commands/serve/run-serve.js')
      return await runServe(serve as NonNullable<typeof serve>, io)
    } catch (error) {
      if (io.signal.aborted && !isKitError(error)) return exitCodes.interrupted
      return reportError(error, io, false)
    }
  }
  const { own, serverCommand } = splitServerCommand(argv)
  return runProgram(await program(own, serverCommand), own, serverCommand, io)
}
