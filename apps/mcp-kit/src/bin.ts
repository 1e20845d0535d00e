#!/usr/bin/env node
// The `mcp-kit` executable: a tiny shim. `--version` is answered without loading anything else
// (start-up time is a feature). `__daemon` is the warm-session daemon, handed the program it runs
// commands with. Any other command line is routed once (warm/route.ts): to the daemon, this
// process only relaying, or to this process (cli/main.ts). A command run here exits, once it is
// done (its servers shut down, its sessions closed), without waiting for V8's background work:
// Node otherwise waits at exit until V8 has finished optimizing fetch's WebAssembly HTTP parser,
// code that will never run again (60–100 ms of every HTTP command, tooling/bench inspect-2026).

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
  const { runDaemon } = await import('./warm/daemon.js')
  await runDaemon(() => import('./program/run.js'))
} else {
  // `ui -- cmd`: the server starts while the CLI loads (commands/ui/early-server.ts).
  if (argv[0] === 'ui' && argv.includes('--'))
    void import('./program/plain-ui.js').then((plain) => plain.launchUiServerEarly(argv)).catch(() => {})
  const [{ route }, { processIo }, { interruptSignal }] = await Promise.all([
    import('./warm/route.js'),
    import('./base/io.js'),
    import('./base/process-signals.js'),
  ])
  const io = processIo(interruptSignal())
  const routed = await route(argv, io)
  if (routed !== 'here') {
    // Relayed: the daemon ran the command.
    process.exitCode = routed
  } else {
    const { main } = await import('./cli/main.js')
    process.exitCode = await main(argv, io)
    // Let what the command wrote reach its readers first (pipes are asynchronous on some systems).
    await Promise.all(
      [process.stdout, process.stderr].map((stream) => new Promise((resolve) => stream.write('', resolve))),
    )
    process.exit()
  }
}
