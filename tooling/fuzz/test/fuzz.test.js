// The fuzzer in the test suite: a short seeded run against the workspace's `mcp-kit serve`
// (HTTP stateful and stateless, stdio; both eras) must find nothing, and the same harness run
// against a sabotaged registry must report the crash and the dead server it causes, so a clean
// run means something. `pnpm fuzz -- --cases 10000` is the full run (README).

import { fileURLToPath } from 'node:url'
import { redisForTests } from '@mcp-kit/fixtures/redis'
import { afterAll, expect, test } from 'vitest'
import { caseFor } from '../src/cases.js'
import { runFuzz } from '../src/run-fuzz.js'

const sabotaged = fileURLToPath(new URL('./fixtures/sabotaged-registry.js', import.meta.url))
const redis = await redisForTests({ what: 'tooling/fuzz/test/fuzz.test.js (the store leg)' })

afterAll(async () => {
  await redis?.stop()
})

function alive(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

test('cases are a function of the seed and the index', () => {
  expect(caseFor(7, 12)).toEqual(caseFor(7, 12))
  const cases = Array.from({ length: 50 }, (_, index) => JSON.stringify(caseFor(7, index)))
  expect(new Set(cases).size).toBe(50)
  expect(JSON.stringify(caseFor(8, 12))).not.toBe(cases[12])
})

test('any seed makes cases (a header named `__proto__` once broke the generator)', () => {
  for (let seed = 0; seed < 1500; seed += 1)
    expect(caseFor(seed * 7919, seed).target).toMatch(/^(http|stateless|stdio)$/)
})

test('1,500 cases of a fixed seed: no 5xx, no hang, no crash, nothing malformed or leaked', async () => {
  const pids = []
  // A hang is no answer in 15 s here (5 s in the harness): this file runs beside the whole suite on
  // two cores, where a 6 MB echo and the ping after it have waited more than 5 s for a core.
  const summary = await runFuzz({
    seed: 20260728,
    cases: 1500,
    timeoutMs: 15_000,
    onStart: (pid) => pids.push(pid),
  })
  // On failure, the findings say what and where (`--seed 20260728 --case N` reproduces one).
  expect(summary.findings).toEqual([])
  expect(Object.values(summary.counts).every((count) => count === 0)).toBe(true)
  for (const lane of ['http', 'stateless', 'stdio']) expect(summary.byTarget[lane]).toBeGreaterThan(100)
  // The cases reach the handlers, not only the gates in front of them.
  expect(summary.answers.http['200']).toBeGreaterThan(100)
  expect(summary.answers.stdio.result).toBeGreaterThan(100)
  expect(pids.length).toBe(3)
  for (const pid of pids) expect(alive(pid)).toBe(false)
}, 240_000)

// The same hostile traffic when sessions, their event logs and tasks live in Redis (what several
// instances share): made-up session ids and Last-Event-IDs reach the store's keys there.
test.skipIf(redis === undefined)(
  '600 cases with the HTTP lanes on Redis (`serve --store`): no 5xx, no hang, nothing malformed',
  async () => {
    const summary = await runFuzz({ seed: 20261125, cases: 600, store: redis?.url })
    expect(summary.findings).toEqual([])
    expect(summary.byTarget.http).toBeGreaterThan(200)
    expect(summary.answers.http['200']).toBeGreaterThan(50)
  },
  240_000,
)

test('a server that crashes or stops answering is caught, restarted, and the run fails', async () => {
  const pids = []
  const summary = await runFuzz({
    seed: 1,
    cases: 40,
    module: sabotaged,
    timeoutMs: 1500,
    onStart: (pid) => pids.push(pid),
  })
  expect(summary.counts.crash).toBeGreaterThanOrEqual(1)
  expect(summary.counts.dead).toBeGreaterThanOrEqual(1)
  expect(summary.restarts).toBeGreaterThanOrEqual(1)
  expect(summary.findings.find((finding) => finding.category === 'crash')?.detail).toMatch(/exit 7/)
  for (const pid of pids) expect(alive(pid)).toBe(false)
}, 120_000)
