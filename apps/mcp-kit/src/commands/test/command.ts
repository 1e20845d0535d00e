// `mcp-kit test FILE…` — run collections of saved calls headless, with reports for people and CI.

import type { Argv } from 'yargs'
import type { CommandContext } from '../../base/command-context.js'
import { connectionFlags } from '../../session/connection-flags.js'
import type { TestArguments } from './run-test.js'

const { timeout, 'connect-timeout': connectTimeout, 'max-time': maxTime } = connectionFlags

export const command = 'test <files..>'
export const describe =
  'Run collections of saved calls (YAML or JSON files) with their assertions: a line per step on a terminal, NDJSON, JUnit XML or TAP for CI'

export function builder(yargs: Argv) {
  return yargs
    .positional('files', { type: 'string', array: true, describe: 'Collection files (.yaml, .yml, .json)' })
    .option('reporter', {
      type: 'string',
      array: true,
      describe:
        'pretty, ndjson, junit or tap, each to stdout or to a file as NAME=FILE (repeatable; default: pretty on a terminal, else ndjson)',
      group: 'Reports:',
    })
    .option('bail', {
      type: 'boolean',
      describe: 'Stop at the first failed step (the rest are skipped)',
      group: 'Run:',
    })
    .option('grep', {
      type: 'string',
      describe:
        'Run only the steps whose name matches this regular expression (and the steps they take captured values from)',
      group: 'Run:',
    })
    .option('env', {
      type: 'string',
      array: true,
      describe:
        "A value for ${NAME} in the collections: NAME=value, or a file of NAME=value lines (repeatable; wins over the environment and the file's variables)",
      group: 'Run:',
    })
    .option('parallel', {
      type: 'boolean',
      describe: "Run each server's steps in order and the servers at the same time",
      group: 'Run:',
    })
    .option('update', {
      type: 'boolean',
      describe:
        'Rewrite the observed expectations (result snapshots, error codes, schema hashes, drift baselines) of steps that no longer match',
      group: 'Run:',
    })
    .option('timeout', {
      ...timeout,
      describe: "Seconds each step may take when neither it nor its collection sets a 'timeout'",
    })
    .option('connect-timeout', connectTimeout)
    .option('max-time', {
      ...maxTime,
      describe: 'Seconds for the whole run (the rest of the steps are skipped)',
    })
    .options({
      'max-message-size': connectionFlags['max-message-size'],
      'pass-env': connectionFlags['pass-env'],
      root: connectionFlags.root,
      trace: connectionFlags.trace,
      'trace-redact-args': connectionFlags['trace-redact-args'],
      verbose: connectionFlags.verbose,
      quiet: connectionFlags.quiet,
      registry: connectionFlags.registry,
      'registry-header': connectionFlags['registry-header'],
    })
    .example('$0 test examples/collections/demo.yaml', '')
    .example(
      '$0 test suite/*.yaml --reporter junit=results.xml --bail',
      'in CI: JUnit XML for the CI, a line per step on stdout',
    )
    .example('$0 test session.yaml --update', 'a recorded session: take the answers as they are now')
    .epilogue(
      'Exit codes: 0 every step passed, 1 a step failed, 2 a bad collection file or flag, 3 a server could not be launched or reached.',
    )
}

export async function handler(argv: TestArguments & CommandContext): Promise<void> {
  const { runTest } = await import('./run-test.js')
  argv.result.exitCode = await runTest(argv, argv.io)
}
