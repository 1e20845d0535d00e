// One fuzz run: generates the cases of a seed, hands each to its lane (HTTP stateful, HTTP
// stateless, stdio; the lanes run side by side, each one case at a time), checks after every
// case that the server still answers a valid request and is still running (restarting it if
// not), collects findings, and writes each failing case to a file for reproduction.

import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { caseFor, caseSeed } from './cases.js'
import { HttpLane } from './http-lane.js'
import { categories } from './oracle.js'
import { StdioLane } from './stdio-lane.js'

export const fuzzRegistry = fileURLToPath(new URL('./registry.js', import.meta.url))

/**
 * @typedef {object} FuzzOptions
 * @property {number} seed
 * @property {number} cases
 * @property {number} [first]          index of the first case (default 0)
 * @property {string} [module]         the registry module to serve (default the fuzz registry)
 * @property {string} [bin]            mcp-kit's bin (default the workspace build)
 * @property {string} [store]          serve the HTTP lanes with `--store <url>` (a fresh prefix per run)
 * @property {number} [timeoutMs]      the hang bound of one exchange (default 5000)
 * @property {string} [outputDirectory]  where failing cases are written
 * @property {(line: string) => void} [log]
 * @property {(pid: number) => void} [onStart]  told the pid of every server a lane starts
 */

/**
 * @typedef {object} FuzzFinding
 * @property {number} index
 * @property {string} target
 * @property {string} kind
 * @property {string} category
 * @property {string} detail
 */

/**
 * @typedef {object} FuzzSummary
 * @property {number} seed
 * @property {number} cases
 * @property {Record<string, number>} byTarget   cases per lane
 * @property {Record<string, number>} byKind
 * @property {Record<string, number>} counts     failing cases per finding category
 * @property {FuzzFinding[]} findings
 * @property {number} restarts
 * @property {number} slowCases      cases that took over a second (not a finding; a hint)
 * @property {{ index: number, target: string, kind: string, ms: number }[]} slowest  the first 20 of them
 * @property {number} resets         connections reset while a case still sent its body (see http-lane.js)
 * @property {Record<string, Record<string, number>>} answers  HTTP statuses per HTTP lane, results and error codes on stdio
 * @property {number} seconds
 * @property {string[]} failureFiles
 */

/** @param {FuzzOptions} options @returns {Promise<FuzzSummary>} */
export async function runFuzz(options) {
  const started = performance.now()
  const log = options.log ?? (() => {})
  const timeoutMs = options.timeoutMs ?? 5000
  const module = options.module ?? fuzzRegistry
  const first = options.first ?? 0
  const shared = { module, bin: options.bin, timeoutMs }
  // With a store, every HTTP server of the run shares one prefix of its own: sessions, their
  // event logs and tasks go through it (what several instances would share).
  const storeArgs =
    options.store === undefined
      ? []
      : ['--store', options.store, '--store-prefix', `mcp-kit-fuzz:${process.pid}-${Date.now()}:`]
  const lanes = {
    http: new HttpLane({ ...shared, name: 'http', stateless: false, serveArgs: storeArgs }),
    stateless: new HttpLane({ ...shared, name: 'stateless', stateless: true, serveArgs: storeArgs }),
    stdio: new StdioLane(shared),
  }
  /** @type {Record<string, { index: number, recipe: any }[]>} */
  const queues = { http: [], stateless: [], stdio: [] }
  const byKind = {}
  for (let index = first; index < first + options.cases; index += 1) {
    const recipe = caseFor(options.seed, index)
    queues[recipe.target].push({ index, recipe })
    const kind = `${recipe.target}:${recipe.kind}`
    byKind[kind] = (byKind[kind] ?? 0) + 1
  }
  /** @type {FuzzFinding[]} */
  const findings = []
  const failureFiles = []
  let restarts = 0
  let slowCases = 0
  const slowest = []
  let done = 0
  const record = (index, recipe, caseFindings, sent) => {
    if (caseFindings.length === 0) return
    for (const finding of caseFindings)
      findings.push({ index, target: recipe.target, kind: recipe.kind, ...finding })
    log(
      `case ${index} (${recipe.target} ${recipe.kind}): ${caseFindings.map((finding) => `${finding.category}: ${finding.detail}`).join('; ')}`,
    )
    if (options.outputDirectory === undefined || failureFiles.length >= 50) return
    mkdirSync(options.outputDirectory, { recursive: true })
    const file = join(options.outputDirectory, `seed-${options.seed}-case-${index}.json`)
    writeFileSync(
      file,
      `${JSON.stringify(
        {
          reproduce: `node tooling/fuzz/src/main.js --seed ${options.seed} --case ${index}`,
          seed: options.seed,
          index,
          caseSeed: caseSeed(options.seed, index),
          findings: caseFindings,
          recipe,
          sent,
        },
        null,
        2,
      )}\n`,
    )
    failureFiles.push(file)
  }

  const runLane = async (name) => {
    const lane = lanes[name]
    const queue = queues[name]
    if (queue.length === 0) return
    try {
      await lane.start()
      options.onStart?.(lane.server.pid)
      for (const { index, recipe } of queue) {
        const caseStarted = performance.now()
        let result
        try {
          result = await lane.run(recipe)
        } catch (error) {
          result = {
            findings: [{ category: 'dead', detail: `the case could not run: ${error.message}` }],
            sent: [],
          }
        }
        const caseFindings = result.findings
        if (lane.server.alive()) {
          try {
            caseFindings.push(...(await lane.live()))
          } catch (error) {
            caseFindings.push({ category: 'dead', detail: `the liveness check failed: ${error.message}` })
          }
        }
        for (const line of lane.server.takeStderr()) {
          if (/server error/i.test(line))
            caseFindings.push({ category: 'internal', detail: line.slice(0, 300) })
        }
        if (!lane.server.alive()) {
          caseFindings.push({
            category: 'crash',
            detail: `mcp-kit serve ended (${lane.server.exitReason()})`,
          })
          restarts += 1
          await lane.stop()
          await lane.start()
          options.onStart?.(lane.server.pid)
        }
        const caseMs = performance.now() - caseStarted
        if (caseMs > 1000) {
          slowCases += 1
          if (slowest.length < 20)
            slowest.push({ index, target: recipe.target, kind: recipe.kind, ms: Math.round(caseMs) })
        }
        record(index, recipe, caseFindings, result.sent)
        done += 1
        if (done % 1000 === 0)
          log(
            `${done} cases, ${findings.length} findings, ${((performance.now() - started) / 1000).toFixed(0)} s`,
          )
      }
    } finally {
      await lane.stop()
    }
  }
  // Every lane ends (and stops its server) before a failure of one is reported.
  const ended = await Promise.allSettled(Object.keys(lanes).map(runLane))
  for (const result of ended) if (result.status === 'rejected') throw result.reason

  const counts = Object.fromEntries(categories.map((category) => [category, 0]))
  // A case counts once per category, however many of its answers broke the rule.
  const seen = new Set()
  for (const finding of findings) {
    const key = `${finding.index} ${finding.category}`
    if (seen.has(key)) continue
    seen.add(key)
    counts[finding.category] = (counts[finding.category] ?? 0) + 1
  }
  return {
    seed: options.seed,
    cases: options.cases,
    byTarget: Object.fromEntries(Object.entries(queues).map(([name, queue]) => [name, queue.length])),
    byKind,
    counts,
    findings,
    restarts,
    slowCases,
    slowest,
    resets: lanes.http.resets + lanes.stateless.resets,
    answers: { http: lanes.http.statuses, stateless: lanes.stateless.statuses, stdio: lanes.stdio.outcomes },
    seconds: (performance.now() - started) / 1000,
    failureFiles,
  }
}

/** The one-line summary `main.js` prints (and the README quotes). */
export function summaryLine(summary) {
  const { counts } = summary
  const others = Object.entries(counts)
    .filter(([category, count]) => !['5xx', 'hang', 'crash'].includes(category) && count > 0)
    .map(([category, count]) => `, ${count} ${category}`)
    .join('')
  return (
    `fuzz seed ${summary.seed}: ${summary.cases} cases (http ${summary.byTarget.http}, stateless ${summary.byTarget.stateless}, stdio ${summary.byTarget.stdio}), ` +
    `${counts['5xx']} 5xx, ${counts.hang} hangs, ${counts.crash} crashes${others}, ${summary.seconds.toFixed(1)} s`
  )
}
