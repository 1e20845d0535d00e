#!/usr/bin/env node
// The `mcp-kit` executable: a tiny shim. `--version` is answered without loading anything
// else (start-up time is a feature); everything else goes to the yargs CLI, and once the command
// is done (its servers shut down, its sessions closed) the process exits without waiting for
// V8's background work: Node otherwise waits at exit until V8 has finished optimizing fetch's
// WebAssembly HTTP parser, code that will never run again (60–100 ms of every HTTP command,
// tooling/bench inspect-2026).

import { readFileSync } from 'node:fs'
import * as module from 'node:module'

// Node 22.1+ caches compiled modules between runs; Node 20 has no such cache (and no function).
;(module as { enableCompileCache?: () => unknown }).enableCompileCache?.()

const argv = process.argv.slice(2)
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string
  }
  process.stdout.write(`${manifest.version}\n`)
} else if (argv[0] === '__daemon') {
  // The warm-session daemon, started by the first --keep-alive command.
  const { runDaemon } = await import('./warm/daemon.js')
  await runDaemon(() => import('./cli/main.js'))
} else if (keepAliveRequested(argv)) {
  // A warm call: the daemon runs the command; this process only relays (warm/warm-client.ts).
  const [{ runWarm }, { processIo }, { interruptSignal }] = await Promise.all([
    import('./warm/warm-client.js'),
    import('./base/io.js'),
    import('./base/process-signals.js'),
  ])
  process.exitCode = await runWarm(argv, processIo(interruptSignal()))
} else if (profileCommand(argv) && !argv.some((arg) => arg.startsWith('--keep-alive'))) {
  // A profile may keep its server alive: a running daemon knows, and runs the command if so.
  const [{ tryWarmProfile }, { processIo }, { interruptSignal }] = await Promise.all([
    import('./warm/warm-client.js'),
    import('./base/io.js'),
    import('./base/process-signals.js'),
  ])
  const io = processIo(interruptSignal())
  const outcome = await tryWarmProfile(argv, io, argv[1] as string)
  if (outcome === 'not-warm') {
    const { run } = await import('./cli/main.js')
    process.exitCode = await run(argv, io)
  } else process.exitCode = outcome
} else {
  // `ui -- cmd`: the server starts while the CLI loads (commands/ui/early-server.ts).
  if (argv[0] === 'ui' && argv.includes('--'))
    void import('./cli/plain-ui.js').then((plain) => plain.launchUiServerEarly(argv)).catch(() => {})
  const { main } = await import('./cli/main.js')
  await main(argv)
  // Let what the command wrote reach its readers first (pipes are asynchronous on some systems).
  await Promise.all(
    [process.stdout, process.stderr].map((stream) => new Promise((resolve) => stream.write('', resolve))),
  )
  process.exit()
}

/** `cat @profile/tool …` and the like (the reference first, as usual), without --help. */
function profileCommand(args: readonly string[]): boolean {
  return (
    ['cat', 'head', 'tail', 'put', 'inspect', 'watch'].includes(args[0] as string) &&
    (args[1] ?? '').startsWith('@') &&
    !args.includes('--help') &&
    !args.includes('-h')
  )
}

/** `--keep-alive <duration>` (other than 0) without --help: the command is for the daemon. */
function keepAliveRequested(args: readonly string[]): boolean {
  let requested = false
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string
    if (arg === '--') break
    if (arg === '--help' || arg === '-h') return false
    const value =
      arg === '--keep-alive' ? args[index + 1] : arg.startsWith('--keep-alive=') ? arg.slice(13) : null
    if (value !== null) requested = value !== undefined && !/^\s*0*(\.0*)?\s*[a-z]*\s*$/i.test(value)
  }
  return requested && args[0] !== 'sessions'
}
