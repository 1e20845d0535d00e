// The yargs CLI: parses flags, runs one command, and turns every failure into a one-line message
// and a documented exit code. Commands load their heavy code lazily, so `--help` stays fast.

import { readFileSync } from 'node:fs'
import yargs from 'yargs'
import { shellOf } from '../commands/completion/scripts.js'
import { commands } from '../commands/index.js'
import { completeWords, yargsCompleter } from './complete.js'
import { CliError, isKitError } from './errors.js'
import { exitCodes } from './exit-codes.js'
import { type Io, processIo, write } from './io.js'
import { reportError } from './report-error.js'

function version(): string {
  return (
    JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
  ).version
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

const completionKey = '--get-yargs-completions'

/** Runs the CLI on `argv` (without node and script) and returns the exit code. */
export async function run(argv: readonly string[], io: Io): Promise<number> {
  const result = { exitCode: exitCodes.ok }
  const parser = yargs([...argv])
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
  if (argv[0] === completionKey) {
    // The completion scripts' entry point. References, profiles, tools and parameters are ours;
    // commands, flags and choices are yargs' (not strict: a half-typed line is no usage error).
    const words = argv.slice(1)
    const ours = await completeWords(words, io, shellOf(io.env))
    if (Array.isArray(ours)) {
      await write(io.stdout, ours.map((line) => `${line}\n`).join(''))
      return exitCodes.ok
    }
    parser.strict(false).completion('__complete', false, yargsCompleter(ours.flagValue))
  }
  try {
    skipHelpRendering(parser)
    await parser.parseAsync([...argv], { io, result })
  } catch (error) {
    if (io.signal.aborted && !isKitError(error)) return exitCodes.interrupted
    return reportError(error, io, argv.includes('--verbose') || argv.includes('-v'))
  }
  return result.exitCode
}

/** The process entry: wires signals (Ctrl-C ends the command after cleaning up its server) and exits. */
export async function main(argv: readonly string[]): Promise<void> {
  const controller = new AbortController()
  let interrupted = false
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) process.exit(exitCodes.interrupted) // second Ctrl-C: stop waiting
    interrupted = true
    controller.abort(new Error(`interrupted by ${signal}`))
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    // A closed pipe (`mcp-kit cat … | head -1`) is not an error worth a message.
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0)
  })
  const code = await run(argv, processIo(controller.signal))
  // The command decides: an interrupted call reports 130 itself; `serve` shuts down cleanly and exits 0.
  process.exitCode = code
}
