#!/usr/bin/env node
// `pnpm bench`: measures mcp-kit against its anchors side by side in one run, prints the table of
// ratios and writes it as bench-results/latest.json (and latest.md for the README). Targets that
// are not met do not fail the run: the table is the verdict. A measurement that breaks does.

import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { join } from 'node:path'
import { createContext } from './context.js'
import { measureGateway } from './measurements/gateway.js'
import { measureGatewayControls } from './measurements/gateway-controls.js'
import { measureHttp, measureSessionMemory } from './measurements/http.js'
import { measureInspectEverything, measureInspectLocal } from './measurements/inspect.js'
import { measureInspectMemory } from './measurements/memory.js'
import { measureHttpModern, measureInspectModern, measureMemoryModern } from './measurements/modern.js'
import { measureOpenApi } from './measurements/openapi.js'
import { measureOpenApiLarge } from './measurements/openapi-large.js'
import { processesLeftBehind } from './measurements/process-timing.js'
import { measurePut, measureScaling } from './measurements/put.js'
import { measureSoak } from './measurements/soak.js'
import { measureStart } from './measurements/start.js'
import { measureCluster } from './measurements/store/cluster.js'
import { measureStore } from './measurements/store/index.js'
import { measureUi } from './measurements/ui.js'
import { measureWarm } from './measurements/warm.js'
import { groups, parseOptions } from './options.js'
import { failedRow } from './rows.js'
import { killLiveGroups } from './run-process.js'
import { renderMarkdown, renderText } from './table.js'

/**
 * @typedef {(context: import('./context.js').Context, options: import('./options.js').BenchOptions,
 *   log: (line: string) => void) => Promise<import('./rows.js').Row[]>} Measurement
 */

/** @type {[string, string, Measurement][]} group, what it measures, how */
const measurements = [
  ['start', 'CLI start', measureStart],
  ['inspect', 'inspect of local servers', measureInspectLocal],
  ['everything', 'inspect of server-everything', measureInspectEverything],
  ['inspect-2026', 'inspect of an SDK v2 server (2026-07-28)', measureInspectModern],
  ['put', 'put of echo calls', measurePut],
  ['http', 'HTTP throughput and latency', measureHttp],
  ['http-2026', '2026-07-28 stateless tools/call throughput', measureHttpModern],
  ['memory', 'peak RSS of inspect', measureInspectMemory],
  ['memory', 'memory per idle HTTP session', measureSessionMemory],
  ['memory-2026', 'memory per 2026 request in flight', measureMemoryModern],
  ['scaling', 'put scaling', measureScaling],
  ['gateway', 'gateway overhead and memory', measureGateway],
  ['gateway-controls', 'what the gateway controls cost a call', measureGatewayControls],
  ['openapi', 'a REST API as MCP tools (serve --openapi)', measureOpenApi],
  [
    'openapi-large',
    "GitHub's and Stripe's APIs as MCP tools, against @ivotoby/openapi-mcp-server",
    measureOpenApiLarge,
  ],
  ['warm', 'warm sessions (--keep-alive)', measureWarm],
  ['ui', 'the web UI against the Inspector web UI', measureUi],
  ['store', 'shared state on Redis vs in memory', measureStore],
  ['cluster', 'shared state on a Redis Cluster vs one Redis', measureCluster],
  ['soak', 'soak: mixed load on serve, memory over time', measureSoak],
]

for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => {
    killLiveGroups()
    process.exit(130)
  })
}

const options = parseOptions(process.argv.slice(2))
const context = createContext(options)
const log = (line) => process.stderr.write(`${line}\n`)
const started = Date.now()
log(`mcp-kit bench (${options.mode}): ${context.kitBin} (${context.kitVersion}, ${context.kitRevision})`)

/** @type {import('./rows.js').Row[]} */
const rows = []
let broken = 0
try {
  for (const [group, title, measure] of measurements) {
    if (!options.only.includes(group)) continue
    const groupStarted = Date.now()
    log(`▸ ${title}`)
    try {
      const measured = await measure(context, options, log)
      rows.push(...measured)
      // A measurement may fail some rows and keep the others (the store rows without Redis).
      broken += measured.filter((row) => row.error !== undefined).length
      for (const row of measured) {
        log(
          `  ${row.name}${row.anchor ? ` vs ${row.anchor.name}` : ''}: ${row.ratio === null ? row.kit.median.toFixed(1) : `ratio ${row.ratio.toFixed(2)}`}`,
        )
      }
    } catch (error) {
      broken++
      log(`  FAILED: ${error instanceof Error ? error.message : String(error)}`)
      rows.push(failedRow({ id: `${group}-failed`, group, name: `${title} (failed)`, unit: 'ms' }, error))
    }
    log(`  (${((Date.now() - groupStarted) / 1000).toFixed(1)} s)`)
  }
} finally {
  killLiveGroups()
  context.dispose()
}

rows.sort((left, right) => groups.indexOf(left.group) - groups.indexOf(right.group))
const withTargets = rows.filter((row) => row.target)
const report = {
  schemaVersion: 1,
  date: new Date().toISOString(),
  mode: options.mode,
  durationSeconds: (Date.now() - started) / 1000,
  environment: {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    kitBin: context.kitBin,
    kitVersion: context.kitVersion,
    kitRevision: context.kitRevision,
  },
  options,
  summary: {
    targets: withTargets.length,
    met: withTargets.filter((row) => row.met).length,
    notMet: withTargets.filter((row) => !row.met).map((row) => row.id),
    failedMeasurements: broken,
    processesLeftBehind: [...processesLeftBehind],
  },
  rows,
}

mkdirSync(options.outputDirectory, { recursive: true })
writeFileSync(join(options.outputDirectory, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`)
const environmentLine =
  `${report.date.slice(0, 10)}, ${options.mode} run, Node ${process.version}, ${report.environment.cpus} × ` +
  `${report.environment.cpuModel}, mcp-kit ${context.kitVersion} (${context.kitRevision})`
writeFileSync(join(options.outputDirectory, 'latest.md'), `${renderMarkdown(rows)}\n\n${environmentLine}\n`)

process.stdout.write(`\n${renderText(rows)}\n\n`)
process.stdout.write(
  `${report.summary.met}/${report.summary.targets} targets met` +
    (report.summary.notMet.length ? ` (not met: ${report.summary.notMet.join(', ')})` : '') +
    `; ${environmentLine}; ${report.durationSeconds.toFixed(0)} s\n`,
)
process.stdout.write(`Results: ${join(options.outputDirectory, 'latest.json')}\n`)
if (broken > 0) process.exitCode = 1
