#!/usr/bin/env node
// `node tooling/fuzz/src/main.js --cases 10000 --seed N`: fuzzes `mcp-kit serve` (HTTP stateful
// and stateless, and stdio) and prints one summary line; exits 1 on any finding, with each
// failing case written to fuzz-results/ for reproduction (`--seed N --case I` runs just that one).

import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runFuzz, summaryLine } from './run-fuzz.js'

const packageDirectory = join(dirname(fileURLToPath(import.meta.url)), '..')
const usage = `Usage: node tooling/fuzz/src/main.js [--cases N] [--seed N] [--case I] [--timeout MS]
                                   [--module registry.js] [--mcp-kit bin.js] [--store URL] [--output DIR] [--json]
  --cases N      how many cases (default 10000)
  --seed N       the run's seed (default: a random one, printed)
  --case I       run only case I of the seed (reproduce a failure)
  --timeout MS   an answer or a close must come within this (default 5000)
  --module FILE  the registry module to serve (default src/registry.js)
  --mcp-kit FILE mcp-kit's bin (default the workspace build)
  --store URL    serve the HTTP lanes on a shared store (redis://…): sessions go through it
  --output DIR   where failing cases go (default tooling/fuzz/fuzz-results)
  --json         print the summary as JSON instead of one line
Each flag also reads MCP_KIT_FUZZ_<NAME> (MCP_KIT_FUZZ_SEED=7).
`

function parse(argv, env) {
  const flags = new Map()
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index]
    if (!argument.startsWith('--')) throw new Error(`unexpected argument ${argument}`)
    const [name, inline] = argument.slice(2).split(/=(.*)/s, 2)
    if (name === 'help' || name === 'json') flags.set(name, 'true')
    else {
      const value = inline ?? argv[++index]
      if (value === undefined) throw new Error(`--${name} needs a value`)
      flags.set(name, value)
    }
  }
  const setting = (name) => flags.get(name) ?? env[`MCP_KIT_FUZZ_${name.toUpperCase().replaceAll('-', '_')}`]
  const integer = (name, fallback) => {
    const value = setting(name)
    if (value === undefined) return fallback
    const number = Number(value)
    if (!Number.isSafeInteger(number)) throw new Error(`--${name} must be an integer (got ${value})`)
    return number
  }
  const onlyCase = integer('case', undefined)
  return {
    help: flags.has('help'),
    json: flags.has('json'),
    seed: integer('seed', Math.floor(Math.random() * 2 ** 31)),
    cases: onlyCase === undefined ? integer('cases', 10_000) : 1,
    first: onlyCase ?? 0,
    timeoutMs: integer('timeout', 5000),
    module: setting('module') ? resolve(setting('module')) : undefined,
    bin: setting('mcp-kit') ? resolve(setting('mcp-kit')) : undefined,
    store: setting('store'),
    outputDirectory: resolve(setting('output') ?? join(packageDirectory, 'fuzz-results')),
  }
}

let options
try {
  options = parse(process.argv.slice(2), process.env)
} catch (error) {
  process.stderr.write(`${error.message}\n${usage}`)
  process.exit(2)
}
if (options.help) {
  process.stdout.write(usage)
  process.exit(0)
}
const log = (line) => process.stderr.write(`${line}\n`)
log(
  `fuzz seed ${options.seed}: ${options.cases} case${options.cases === 1 ? '' : 's'}${options.first ? ` from ${options.first}` : ''}`,
)
const summary = await runFuzz({ ...options, log })
if (options.json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`)
else process.stdout.write(`${summaryLine(summary)}\n`)
if (summary.failureFiles.length > 0) log(`failing cases written to ${options.outputDirectory}`)
process.exitCode = summary.findings.length > 0 ? 1 : 0
