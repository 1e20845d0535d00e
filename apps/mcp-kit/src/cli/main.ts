// The yargs CLI: parses flags, runs one command, and turns every failure into a one-line message
// and a documented exit code. Commands load their heavy code lazily, so `--help` stays fast; the
// plainest `inspect`, `serve --openapi` and `ui` skip yargs altogether (plain-*.ts).

import { readFileSync } from 'node:fs'
import type { Argv } from 'yargs'
import { CliError, isKitError } from '../base/errors.js'
import { exitCodes } from '../base/exit-codes.js'
import { type Io, processIo, write } from '../base/io.js'
import { interruptSignal } from '../base/process-signals.js'
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

const completionKey = '--get-yargs-completions'

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
  const [{ default: yargs }, { commandLineCommands, commands }] = await Promise.all([
    import('yargs'),
    import('../commands/index.js'),
  ])
  const result = { exitCode: exitCodes.ok }
  const { own, serverCommand } = splitServerCommand(argv)
  const parser: Argv = yargs(own)
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
      if (!commandLineCommands.includes(first ?? '') && !commandLineCommands.includes(`${first} ${second}`)) {
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
  if (argv[0] === completionKey) {
    // The completion scripts' entry point. References, profiles, tools and parameters are ours;
    // commands, flags and choices are yargs' (not strict: a half-typed line is no usage error).
    const [{ shellOf }, { completeWords, yargsCompleter }] = await Promise.all([
      import('../commands/completion/scripts.js'),
      import('./complete.js'),
    ])
    const ours = await completeWords(argv.slice(1), io, shellOf(io.env))
    if (Array.isArray(ours)) {
      await write(io.stdout, ours.map((line) => `${line}\n`).join(''))
      return exitCodes.ok
    }
    parser.strict(false).completion('__complete', false, yargsCompleter(ours.flagValue))
  }
  try {
    skipHelpRendering(parser)
    await parser.parseAsync(own, { io, result, serverCommand })
  } catch (error) {
    if ((error as Error)?.name === 'WarmHandoff' && io.warm === undefined) {
      // A profile asks for a keep-alive: the daemon runs the command, from the start.
      const { runWarm } = await import('../warm/warm-client.js')
      return runWarm(argv, io)
    }
    if (io.signal.aborted && !isKitError(error)) return exitCodes.interrupted
    return reportError(error, io, own.includes('--verbose') || own.includes('-v'))
  }
  return result.exitCode
}

/** The process entry: wires signals (Ctrl-C ends the command after cleaning up its server) and exits. */
export async function main(argv: readonly string[]): Promise<void> {
  const code = await run(argv, processIo(interruptSignal()))
  // The command decides: an interrupted call reports 130 itself; `serve` shuts down cleanly and exits 0.
  process.exitCode = code
}
