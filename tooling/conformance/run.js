// Runs the official MCP conformance suite (server mode, `--suite all`) against
// `mcp-kit serve everything.js --port 0` and ends with one plain line, `N passed, N failed`,
// counting checks as the suite does. Exit code 0 only when no check failed.
// It builds nothing: turbo builds mcp-kit and @mcp-kit/server first (`pnpm conformance`).
// The counts also go to test-results.json in vitest's JSON shape, which .ci/run sums.
// Extra arguments go to the suite instead of `--suite all`, e.g. `node run.js --scenario ping`.

import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { node22Path } from '@mcp-kit/node22'

const here = dirname(fileURLToPath(import.meta.url))
const require = createRequire(import.meta.url)
const mcpKitBin = join(dirname(require.resolve('mcp-kit/package.json')), 'dist', 'bin.js')
const suiteCli = join(here, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js')
const suiteArguments = process.argv.length > 2 ? process.argv.slice(2) : ['--suite', 'all']

/** Starts the server and resolves with its URL once it says it is listening. */
function startServer() {
  const child = spawn(process.execPath, [mcpKitBin, 'serve', join(here, 'everything.js'), '--port', '0'], {
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

function runSuite(url) {
  return new Promise((resolve, reject) => {
    const child = spawn(node22Path, [suiteCli, 'server', '--url', url, ...suiteArguments], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let output = ''
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (chunk) => {
      output += chunk
      process.stdout.write(chunk)
    })
    child.once('error', reject)
    child.once('exit', (code) => resolve({ code, output }))
  })
}

/** Prints the closing line and writes the report; returns the exit code. */
function report(passed, failed) {
  console.log(`${passed} passed, ${failed} failed`)
  const result = { numPassedTests: passed, numFailedTests: failed, numPendingTests: 0, success: failed === 0 }
  writeFileSync(join(here, 'test-results.json'), `${JSON.stringify(result)}\n`)
  return failed === 0 ? 0 : 1
}

const server = startServer()
let exitCode = 1
try {
  const url = await server.url
  const { code, output } = await runSuite(url)
  // Suite mode ends with "Total: N passed, N failed"; one scenario prints "Passed: N/M, F failed, …".
  const total = /^Total: (\d+) passed, (\d+) failed$/m.exec(output)
  const single = /^Passed: (\d+)\/\d+, (\d+) failed/m.exec(output)
  const counts = total ?? single
  if (counts === null) {
    console.log(`conformance: no result line found (suite exit code ${code})`)
    exitCode = report(0, 1)
  } else {
    // A suite exit code of 1 without failed checks (a crash after the summary) still fails.
    const failed = Number(counts[2]) + (code !== 0 && Number(counts[2]) === 0 ? 1 : 0)
    exitCode = report(Number(counts[1]), failed)
  }
} catch (error) {
  console.error(`conformance: ${error instanceof Error ? error.message : String(error)}`)
  exitCode = report(0, 1)
} finally {
  await stopServer(server.child)
  if (exitCode !== 0 && server.stderr() !== '') console.error(`mcp-kit serve stderr:\n${server.stderr()}`)
}
process.exitCode = exitCode
