// Quick tools/call throughput comparison (issue 4): `mcp-kit serve --port 0` (demo registry,
// stateful session, echo tool) against the SDK's recommended stateful server and a bare
// node:http ceiling. Each server runs in its own process; this process is the load generator
// (keep-alive node:http agent, N concurrent callers on one session, a fixed duration after a
// warm-up). Usage: node scripts/throughput.mjs [seconds=5] [connections=32]
// Needs a build first (`pnpm build` at the root).
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const seconds = Number(process.argv[2] ?? 5)
const connections = Number(process.argv[3] ?? 32)
const mcpKitBin = join(here, '..', '..', '..', 'apps', 'mcp-kit', 'dist', 'bin.js')

const targets = [
  { name: 'mcp-kit serve', args: [mcpKitBin, 'serve', '--port', '0'] },
  { name: 'SDK McpServer + StreamableHTTPServerTransport', args: [join(here, 'sdk-server.mjs')] },
  { name: 'bare node:http (fixed result)', args: [join(here, 'bare-server.mjs')] },
]

function start(target) {
  const child = spawn(process.execPath, target.args, { stdio: ['ignore', 'ignore', 'pipe'] })
  return new Promise((resolve, reject) => {
    let stderr = ''
    child.stderr.on('data', (chunk) => {
      stderr += chunk
      const match = /(http:\/\/\S+\/mcp)/.exec(stderr)
      if (match) resolve({ child, url: new URL(match[1]) })
    })
    child.once('exit', () => reject(new Error(stderr)))
  })
}

function post(agent, url, headers, body) {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
      (response) => {
        const chunks = []
        response.on('data', (chunk) => chunks.push(chunk))
        response.on('end', () =>
          resolve({
            status: response.statusCode,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        )
        response.on('error', reject)
      },
    )
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}

const accept = 'application/json, text/event-stream'

// CPU seconds the server process has used (Linux /proc; 0 elsewhere): the load generator shares
// the machine, so server CPU per call says more than calls/s once the generator saturates.
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return 0
  }
}

async function measure(target) {
  const { child, url } = await start(target)
  const agent = new Agent({ keepAlive: true, maxSockets: connections })
  const base = { 'content-type': 'application/json', accept }
  const initialize = await post(
    agent,
    url,
    base,
    JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'bench', version: '1' },
      },
    }),
  )
  const sessionId = initialize.headers['mcp-session-id']
  const headers = { ...base, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' }
  await post(agent, url, headers, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }))
  let id = 1
  let completed = 0
  let failures = 0
  let measuring = false
  let stop = false
  async function worker() {
    while (!stop) {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: id++,
        method: 'tools/call',
        params: { name: 'echo', arguments: { message: 'hello' } },
      })
      const response = await post(agent, url, headers, body)
      if (response.status !== 200 || !response.body.includes('hello')) failures += 1
      else if (measuring) completed += 1
    }
  }
  const workers = Array.from({ length: connections }, worker)
  await new Promise((resolve) => setTimeout(resolve, 1000))
  measuring = true
  const started = performance.now()
  const cpuBefore = cpuSeconds(child.pid)
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000))
  measuring = false
  const cpu = cpuSeconds(child.pid) - cpuBefore
  const elapsed = (performance.now() - started) / 1000
  stop = true
  await Promise.all(workers)
  agent.destroy()
  child.kill('SIGKILL')
  return { name: target.name, perSecond: completed / elapsed, failures, cpuPerCall: (cpu / completed) * 1e6 }
}

const results = []
for (const target of targets) {
  const result = await measure(target)
  results.push(result)
  console.log(
    `${result.name.padEnd(48)} ${result.perSecond.toFixed(0).padStart(7)} calls/s ${result.cpuPerCall.toFixed(0).padStart(5)} µs server CPU/call  (${result.failures} failed)`,
  )
}
const [mcpKit, sdk, bare] = results
console.log(
  `throughput mcp-kit/SDK = ${(mcpKit.perSecond / sdk.perSecond).toFixed(2)}x, mcp-kit/ceiling = ${(mcpKit.perSecond / bare.perSecond).toFixed(2)}; ` +
    `server CPU per call SDK/mcp-kit = ${(sdk.cpuPerCall / mcpKit.cpuPerCall).toFixed(2)}x, mcp-kit/ceiling = ${(mcpKit.cpuPerCall / bare.cpuPerCall).toFixed(2)}x`,
)
