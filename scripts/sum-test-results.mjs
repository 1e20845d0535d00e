#!/usr/bin/env node
// Sums every test runner's report (vitest's JSON reporter writes test-results.json in each
// package; the conformance harness writes the same shape) into the one line CI reads:
// "N passed, N failed, N skipped".

import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

const root = new URL('..', import.meta.url).pathname
let passed = 0
let failed = 0
let skipped = 0
const rows = []
for (const group of ['packages', 'apps', 'tooling']) {
  const dir = join(root, group)
  if (!existsSync(dir)) continue
  for (const name of readdirSync(dir).sort()) {
    const file = join(dir, name, 'test-results.json')
    if (!existsSync(file)) continue
    const report = JSON.parse(readFileSync(file, 'utf8'))
    const counts = {
      passed: report.numPassedTests ?? 0,
      failed: (report.numFailedTests ?? 0) + (report.success === false && !report.numFailedTests ? 1 : 0),
      skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
    }
    passed += counts.passed
    failed += counts.failed
    skipped += counts.skipped
    rows.push(
      `  ${`${group}/${name}`.padEnd(28)} ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`,
    )
  }
}
// A runner that crashed before writing its report still fails the run: count it once.
const statusIndex = process.argv.indexOf('--runner-status')
const runnerStatus = statusIndex === -1 ? 0 : Number(process.argv[statusIndex + 1])
if (runnerStatus !== 0 && failed === 0) {
  failed = 1
  rows.push(`  a test runner failed without reporting a failed test (exit ${runnerStatus})`)
}
console.log(rows.join('\n'))
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exitCode = failed > 0 ? 1 : 0
