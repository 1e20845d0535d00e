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
} else {
  const { main } = await import('./cli/main.js')
  await main(argv)
  // Let what the command wrote reach its readers first (pipes are asynchronous on some systems).
  await Promise.all(
    [process.stdout, process.stderr].map((stream) => new Promise((resolve) => stream.write('', resolve))),
  )
  process.exit()
}
