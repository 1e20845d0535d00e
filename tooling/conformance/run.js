// Runs the official MCP conformance suite (0.2.0-alpha.12) against mcp-kit, once per protocol
// revision and side: server mode against `mcp-kit serve everything.js --port 0` (and the same on
// Redis, and three instances on a Redis Cluster behind HAProxy: cluster.js), and client mode
// with client.js (the client under test, on @mcp-kit/client's public API), each with
// `--requirements 2025-11-25` and `--requirements 2026-07-28`. Ends with one plain line,
// `N passed, N failed, N skipped`, counting checks as the suite does; checks of scenarios listed
// in baseline.yml (each with its reason) count as skipped, any other failure as failed.
// Exit code 0 only when nothing failed. It builds nothing: turbo builds mcp-kit first
// (`pnpm conformance`). The counts also go to test-results.json in vitest's JSON shape, which
// .ci/run sums. Arguments replace the runs: `node run.js --scenario ping --spec-version 2025-11-25`
// (server), `node run.js client --scenario sse-retry --spec-version 2025-11-25` (client);
// `node run.js client` (or `server`) alone runs every run of that side.

import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { redisForTests } from '@mcp-kit/fixtures/redis'
import { node22Path } from '@mcp-kit/node22'
import { startClusterDeployment } from './cluster.js'

const here = dirname(fileURLToPath(import.meta.url))
const mcpKitBin = join(here, '..', '..', 'apps', 'mcp-kit', 'dist', 'bin.js')
const suiteCli = join(here, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js')
const baselinePath = join(here, 'baseline.yml')
const clientPath = join(here, 'client.js')

/** Scenario names listed in baseline.yml (a flat list under each leg). */
function baselineScenarios() {
  return new Set(
    readFileSync(baselinePath, 'utf8')
      .split('\n')
      .map((line) => /^\s+-\s+([\w/.-]+)/.exec(line)?.[1])
      .filter(Boolean),
  )
}

/** Starts the server and resolves with its URL once it says it is listening. */
function startServer(extraArgs = []) {
  const args = [mcpKitBin, 'serve', join(here, 'everything.js'), '--port', '0', ...extraArgs]
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  const url = new Promise((resolve, reject) => {
    child.stderr.setEncoding('utf8')
    child.stderr.on('data', (chunk) => {
      stderr += chunk
      const match = /(http:\/\/\S+\/mcp)/.exec(stderr)
      if (match) resolve(match[1])
    })
    child.once('exit', (code, signal) =>
      reject(new Error(`mcp-kit serve exited (${signal ?? code}) before listening:\n${stderr}`)),
    )
    child.once('error', reject)
  })
  return { child, url, stderr: () => stderr }
}

function stopServer(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    child.kill('SIGTERM')
  })
}

function runSuite(suiteArguments) {
  return new Promise((resolve, reject) => {
    const child = spawn(node22Path, [suiteCli, ...suiteArguments], { stdio: ['ignore', 'pipe', 'pipe'] })
    // The summary goes to stdout in suite runs and to stderr for one client scenario: read both.
    let output = ''
    for (const [stream, echo] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      stream.setEncoding('utf8')
      stream.on('data', (chunk) => {
        output += chunk
        echo.write(chunk)
      })
    }
    child.once('error', reject)
    child.once('exit', (code) => resolve({ code, output }))
  })
}

/**
 * Counts checks per scenario from the summary (`✓ name: 3 passed, 0 failed`), or from the single
 * scenario form (`Passed: 3/3, 0 failed`); failures of baseline scenarios count as skipped.
 */
export function countChecks(output, code, baseline) {
  let passed = 0
  let failed = 0
  let skipped = 0
  let found = false
  for (const match of output.matchAll(
    /^[✓✗] ([\w/.-]+): (\d+) passed, (\d+) failed(?:, \d+ warnings?)?$/gm,
  )) {
    found = true
    passed += Number(match[2])
    if (baseline.has(match[1])) skipped += Number(match[3])
    else failed += Number(match[3])
  }
  if (!found) {
    const single = /^Passed: (\d+)\/\d+, (\d+) failed/m.exec(output)
    if (single === null)
      return { passed: 0, failed: 1, skipped: 0, note: `no result line (exit code ${code})` }
    passed = Number(single[1])
    failed = Number(single[2])
  }
  // A non-zero exit without a failed check (a crash after the summary) still fails.
  if (code !== 0 && failed === 0) failed = 1
  return { passed, failed, skipped }
}

function report(total) {
  console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`)
  const result = {
    numPassedTests: total.passed,
    numFailedTests: total.failed,
    numPendingTests: total.skipped,
    success: total.failed === 0,
  }
  writeFileSync(join(here, 'test-results.json'), `${JSON.stringify(result)}\n`)
  return total.failed === 0 ? 0 : 1
}

/**
 * The suite starts every client scenario at once (dozens of clients, each with its own mock
 * authorization server); on a 2-core machine some of them time out or see a half-started
 * server. A scenario that failed there runs again alone, and its counts are the alone run's:
 * a real defect fails both times and still counts, and the output names every scenario re-run.
 * Not the OAuth scenarios (`auth/…`): a login must pass on its first run, beside the others.
 */
async function rerunAlone(run, target, output, counts) {
  const failedScenarios = [...output.matchAll(/^✗ ([\w/.-]+): (\d+) passed, (\d+) failed/gm)].filter(
    (match) => !baseline.has(match[1]) && !match[1].startsWith('auth/'),
  )
  for (const [, scenario, passed, failed] of failedScenarios) {
    console.log(`\n### ${run.name}: ${scenario} failed beside the others; running it alone`)
    const alone = await runSuite([
      run.leg,
      ...target,
      '--scenario',
      scenario,
      '--spec-version',
      run.revision,
      '--timeout',
      '90000',
    ])
    const again = countChecks(alone.output, alone.code, baseline)
    console.log(`### ${scenario} alone: ${again.passed} passed, ${again.failed} failed`)
    counts.passed += again.passed - Number(passed)
    counts.failed += again.failed - Number(failed)
  }
}

const custom = process.argv.slice(2)
const customLeg = custom[0] === 'client' || custom[0] === 'server' ? custom[0] : 'server'
// `node run.js client` (or `server`) alone: every run of that leg, as the full run has them.
const legOnly = custom.length === 1 && custom[0] === customLeg
const runs =
  custom.length > 0 && !legOnly
    ? [
        {
          name: customLeg,
          leg: customLeg,
          // CONFORMANCE_STORE=redis runs a server scenario against `serve --store redis://…`;
          // CONFORMANCE_STORE=cluster against three instances on a Redis Cluster behind HAProxy.
          store: process.env.CONFORMANCE_STORE,
          args: custom[0] === customLeg ? custom.slice(1) : custom,
        },
      ]
    : [
        { name: 'server, 2025-11-25', leg: 'server', args: ['--requirements', '2025-11-25'] },
        {
          name: 'server, 2026-07-28',
          leg: 'server',
          args: ['--requirements', '2026-07-28', '--expected-failures', baselinePath],
        },
        // The same against an instance whose sessions, tasks, requestState key and change feed
        // live on Redis (`serve --store`): both revisions, the tasks extension included, must pass
        // with either store.
        {
          name: 'server, 2025-11-25, store on Redis',
          leg: 'server',
          store: 'redis',
          args: ['--requirements', '2025-11-25'],
        },
        {
          name: 'server, 2026-07-28, store on Redis',
          leg: 'server',
          store: 'redis',
          args: ['--requirements', '2026-07-28', '--expected-failures', baselinePath],
        },
        // Three instances on a Redis Cluster (3 masters, 3 replicas) behind HAProxy, round robin
        // without affinity: a session's requests, a task's polls and an input round's retry each
        // reach any instance.
        {
          name: 'server, 2025-11-25, three instances on a Redis Cluster behind HAProxy',
          leg: 'server',
          store: 'cluster',
          args: ['--requirements', '2025-11-25'],
        },
        {
          name: 'server, 2026-07-28, three instances on a Redis Cluster behind HAProxy',
          leg: 'server',
          store: 'cluster',
          args: ['--requirements', '2026-07-28', '--expected-failures', baselinePath],
        },
        // The suite runs client scenarios side by side; on a busy machine a login takes a while.
        ...['2025-11-25', '2026-07-28'].map((revision) => ({
          name: `client, ${revision}`,
          leg: 'client',
          revision,
          args: ['--requirements', revision, '--expected-failures', baselinePath, '--timeout', '90000'],
        })),
        // The two 2025-03-26 back-compat logins (no protected-resource metadata; endpoints at
        // the server's origin when it has no metadata either), outside --requirements.
        ...['auth/2025-03-26-oauth-metadata-backcompat', 'auth/2025-03-26-oauth-endpoint-fallback'].map(
          (scenario) => ({
            name: `client, ${scenario}`,
            leg: 'client',
            args: ['--scenario', scenario, '--spec-version', '2025-03-26', '--timeout', '90000'],
          }),
        ),
      ].filter((run) => !legOnly || run.leg === customLeg)

const baseline = baselineScenarios()
const total = { passed: 0, failed: 0, skipped: 0 }
// REDIS_URL, else 127.0.0.1:6379, else a private redis-server; with none, the Redis leg is
// skipped (a warning, and one skipped count in the summary).
const redis = runs.some((run) => run.store === 'redis')
  ? await redisForTests({ what: 'conformance (server, store on Redis)' })
  : undefined
const server = startServer()
const redisServer =
  redis === undefined
    ? undefined
    : startServer([
        '--store',
        redis.url,
        '--store-prefix',
        `mcp-kit-conformance:${process.pid}-${Date.now()}:`,
      ])
let exitCode = 1
let deployment
try {
  const url = await server.url
  const redisServerUrl = await redisServer?.url
  deployment = runs.some((run) => run.store === 'cluster')
    ? await startClusterDeployment({ startServer, stopServer })
    : undefined
  const urls = { redis: redisServerUrl, cluster: deployment?.url }
  for (const run of runs) {
    console.log(`\n### conformance: ${run.name}`)
    if (run.store !== undefined && urls[run.store] === undefined) {
      console.log(
        `### ${run.name}: skipped, no ${run.store === 'redis' ? 'Redis' : 'Redis Cluster or HAProxy'} (see the warning above)`,
      )
      total.skipped += 1
      continue
    }
    const target =
      run.leg === 'server'
        ? ['--url', run.store === undefined ? url : urls[run.store]]
        : ['--command', `${process.execPath} ${clientPath}`]
    const { code, output } = await runSuite([run.leg, ...target, ...run.args])
    const counts = countChecks(output, code, baseline)
    if (run.revision !== undefined) await rerunAlone(run, target, output, counts)
    console.log(
      `### ${run.name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped${counts.note ? ` (${counts.note})` : ''}`,
    )
    total.passed += counts.passed
    total.failed += counts.failed
    total.skipped += counts.skipped
  }
  exitCode = report(total)
} catch (error) {
  console.error(`conformance: ${error instanceof Error ? error.message : String(error)}`)
  total.failed += 1
  exitCode = report(total)
} finally {
  await stopServer(server.child)
  if (redisServer !== undefined) await stopServer(redisServer.child)
  await redis?.stop()
  if (exitCode !== 0 && deployment !== undefined)
    console.error(`mcp-kit serve on the cluster, stderr:\n${deployment.stderr()}`)
  await deployment?.stop()
  if (exitCode !== 0 && server.stderr() !== '') console.error(`mcp-kit serve stderr:\n${server.stderr()}`)
  if (exitCode !== 0 && redisServer?.stderr())
    console.error(`mcp-kit serve --store stderr:\n${redisServer.stderr()}`)
}
process.exitCode = exitCode
