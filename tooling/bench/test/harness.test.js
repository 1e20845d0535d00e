// Smoke test of the benchmark harness, not of performance: one run of every measurement at tiny
// sizes must produce every row, a well-formed latest.json, and leave no process behind. Timing
// targets are never asserted here; `pnpm bench` is where speed is judged.

import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, expect, test } from 'vitest'

const packageDirectory = join(import.meta.dirname, '..')
const outputDirectory = mkdtempSync(join(tmpdir(), 'mcp-kit-bench-smoke-'))
afterAll(() => rmSync(outputDirectory, { recursive: true, force: true }))

const expectedRows = [
  'start',
  'inspect-demo',
  'inspect-basic',
  'everything-inspector',
  'everything-sdk',
  'everything-sdk-first-run',
  'everything-sdk-vs-inspector',
  'inspect-2026-sdk-v2',
  'put-demo',
  'put-basic',
  'http-sdk',
  'http-bare',
  'http-latency-1-p50',
  'http-latency-1-p99',
  'http-latency-2-p50',
  'http-latency-2-p99',
  'memory-serve-load',
  'memory-inspect-demo',
  'memory-inspect-everything',
  'memory-session',
  'http-2026-throughput',
  'http-2026-latency-p50',
  'http-2026-latency-p99',
  'http-2026-peak-rss',
  'memory-2026-in-flight',
  'scaling-10',
  'scaling-50',
  'scaling-100',
  'gateway-HTTP-p50',
  'gateway-HTTP-p99',
  'gateway-HTTP-20ms-p50',
  'gateway-HTTP-20ms-p99',
  'gateway-memory-session',
  'gateway-stdio-p50',
  'gateway-stdio-p99',
  'gateway-memory-upstream',
  'gateway-controls-cpu',
  'gateway-controls-p50',
  'gateway-controls-added',
  'openapi-p50',
  'openapi-p99',
  'openapi-vs-echo-p50',
  ...['github', 'stripe'].flatMap((api) =>
    [
      'list',
      'list-no-output-schemas',
      'list-cpu',
      'first-page',
      'rss',
      'list-bytes',
      'largest-page',
      'call-p50',
      'call-p50-api-10ms',
    ].map((row) => `openapi-large-${api}-${row}`),
  ),
  'warm-node',
  'warm-mcpc',
  'warm-cold',
  'ui-first-tools',
  'ui-initial-js',
  'ui-backend-rss',
  'store-throughput',
  'store-latency-p99',
  'store-cpu-per-call',
  'store-task-round-trip',
  'store-task-rate',
  'store-memory-per-task',
  'store-redis-memory-per-task',
  'store-commands-2026-call',
  'store-commands-task',
  'store-commands-2025-call',
  'store-commands-2025-open',
  'store-commands-2025-sse-call',
  'store-2025-throughput',
  'store-2025-latency-p99',
  'cluster-task-round-trip',
  'cluster-task-rate',
  'cluster-task-redis-cpu',
  'cluster-task-replica-cpu',
  'cluster-task-instance-cpu',
  'cluster-session-rate',
  'cluster-2025-throughput',
  'cluster-wait-task-round-trip',
  'cluster-wait-task-rate',
  'cluster-wait-redis-cpu',
  'cluster-wait-session-rate',
]

/** Command lines of live processes running one of the bench's anchors or servers. */
function anchorProcesses() {
  const directories = ['anchors', 'servers'].map((name) => join(packageDirectory, name))
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')
      } catch {
        return ''
      }
    })
    .filter((commandLine) => directories.some((directory) => commandLine.includes(directory)))
}

test('one smoke run measures every row and writes well-formed results', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [join(packageDirectory, 'src', 'main.js'), '--smoke', '--output', outputDirectory],
    { cwd: packageDirectory, maxBuffer: 16 * 1024 * 1024 },
  )
  const report = JSON.parse(readFileSync(join(outputDirectory, 'latest.json'), 'utf8'))
  expect(report.mode).toBe('smoke')
  expect(report.summary.failedMeasurements).toBe(0)
  expect(report.rows.map((row) => row.id)).toEqual(expect.arrayContaining(expectedRows))
  for (const row of report.rows) {
    expect(row.error, row.id).toBeUndefined()
    expect(Number.isFinite(row.kit.median), `${row.id} has a value`).toBe(true)
    if (row.anchor) {
      expect(Number.isFinite(row.anchor.median), `${row.id} has an anchor value`).toBe(true)
      // A smoke run's few samples can measure nothing for a CPU row (0): then there is no ratio.
      if (row.anchor.median === 0) expect(row.ratio, row.id).toBeNull()
      else expect(row.ratio, row.id).toBeCloseTo(row.kit.median / row.anchor.median, 10)
    }
    if (row.target) expect(typeof row.met, row.id).toBe('boolean')
    // The printed table has a line for the row.
    expect(stdout).toContain(row.name)
  }
  expect(readFileSync(join(outputDirectory, 'latest.md'), 'utf8')).toContain('| measurement |')
  expect(anchorProcesses()).toEqual([])
})

test('the soak (named with --only) samples memory under load and reports slopes', async () => {
  const soakOutput = join(outputDirectory, 'soak')
  await promisify(execFile)(
    process.execPath,
    [join(packageDirectory, 'src', 'main.js'), '--smoke', '--only', 'soak', '--output', soakOutput],
    { cwd: packageDirectory, maxBuffer: 16 * 1024 * 1024 },
  )
  const report = JSON.parse(readFileSync(join(soakOutput, 'latest.json'), 'utf8'))
  expect(report.summary.failedMeasurements).toBe(0)
  expect(report.rows.map((row) => row.id)).toEqual(['soak-rss-slope', 'soak-heap-slope', 'soak-rate'])
  for (const row of report.rows) expect(Number.isFinite(row.kit.median), row.id).toBe(true)
  const [rss] = report.rows
  // One sample every half second for six seconds, each with RSS and the heap after a collection.
  expect(rss.series.length).toBeGreaterThanOrEqual(5)
  for (const sample of rss.series) {
    expect(sample.rssKib).toBeGreaterThan(sample.heapKib)
    expect(sample.heapKib).toBeGreaterThan(1024)
  }
  expect(report.rows[2].kit.median).toBeGreaterThan(0)
})

test('the soak slope is the least-squares slope', async () => {
  const { slope } = await import('../src/measurements/soak.js')
  expect(slope([0, 1, 2, 3], [10, 12, 14, 16])).toBeCloseTo(2, 10)
  expect(slope([0, 1, 2], [5, 9, 5])).toBeCloseTo(0, 10)
  expect(Number.isNaN(slope([1], [1]))).toBe(true)
})
