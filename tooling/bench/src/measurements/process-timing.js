// Shared shape of the process rows: time several commands side by side (interleaved), check each
// run did its job, and turn the samples into table rows.

import { interleave } from '../interleave.js'
import { runChecked } from '../run-process.js'

/** Labels of commands that exited while something they started still ran (reported in latest.json). */
export const processesLeftBehind = new Set()

/**
 * @typedef {object} Command
 * @property {string} key          short name used in samples (kit, sdk, inspector, node)
 * @property {string} label        what the table calls it
 * @property {string} command
 * @property {string[]} args
 * @property {Buffer | string} [input]
 * @property {NodeJS.ProcessEnv | (() => NodeJS.ProcessEnv)} [env]  the environment (or a function giving each run's; default: the context's)
 * @property {(stdout: Buffer) => void} [check]  throws when the output shows the run failed
 */

/**
 * Times each command `runs` times, interleaved, after one warm-up each. Every run must exit 0;
 * `check` looks at the output of the first timed run (and the warm-up) so a run that did
 * nothing fast cannot pass for a fast run.
 * @param {import('../context.js').Context} context
 * @param {Command[]} commands
 * @param {{ runs: number, warmup: boolean, trackPeakRss?: boolean, log: (line: string) => void }} settings
 * @returns {Promise<Record<string, { wallMs: number[], peakRssMib: number[] }>>}
 */
export async function timeCommands(context, commands, { runs, warmup, trackPeakRss = false, log }) {
  const checked = new Set()
  const leftovers = new Set()
  const samples = await interleave({
    runs,
    warmup,
    contestants: commands.map((command) => ({
      key: command.key,
      run: async () => {
        const result = await runChecked({
          label: command.label,
          command: command.command,
          args: command.args,
          input: command.input,
          env: (typeof command.env === 'function' ? command.env() : command.env) ?? context.env,
          trackPeakRss,
        })
        if (!checked.has(command.key)) {
          command.check?.(result.stdout)
          checked.add(command.key)
        }
        if (result.leftProcesses && !leftovers.has(command.key)) {
          leftovers.add(command.key)
          log(`  warning: ${command.label} left processes running after it exited (ended by the bench)`)
          processesLeftBehind.add(command.label)
        }
        return result
      },
    })),
  })
  return Object.fromEntries(
    Object.entries(samples).map(([key, results]) => [
      key,
      {
        wallMs: results.map((result) => result.wallMs),
        peakRssMib: results.map((result) => (result.peakRssKib ?? Number.NaN) / 1024),
      },
    ]),
  )
}

/** A check that the output is JSON listing at least one tool. */
export function expectToolsJson(stdout) {
  const document = JSON.parse(stdout.toString('utf8'))
  if (!Array.isArray(document.tools) || document.tools.length === 0) {
    throw new Error(`expected a JSON document with tools, got ${stdout.toString('utf8').slice(0, 200)}`)
  }
}

/** A check that the output has one line per input record and no error records. */
export function expectLines(count) {
  return (stdout) => {
    const lines = stdout.toString('utf8').split('\n').filter(Boolean)
    if (lines.length !== count) throw new Error(`expected ${count} output lines, got ${lines.length}`)
    const failed = lines.find((line) => line.includes('"isError":true') || line.includes('"error"'))
    if (failed) throw new Error(`a call failed: ${failed.slice(0, 200)}`)
  }
}

/** NDJSON echo records: {"message":"record 1"} … */
export function echoRecords(count) {
  let text = ''
  for (let index = 1; index <= count; index++) text += `{"message":"record ${index}"}\n`
  return Buffer.from(text)
}
