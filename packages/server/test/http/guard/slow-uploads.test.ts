// @module-tag integration
// 1,100 slow uploads against a server with a 1,024-file limit and its default connection cap
// do not keep an ordinary client out, and are shed within the body timeout. The server and the
// attackers run in child processes, each with its own open-file limit; the server is the built
// package (dist/): build first (turbo's test task does). About 10 s.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterEach, expect, test } from 'vitest'
import { eventually, initialize, post, sleep } from '../../helpers/http.js'

const children = new Set<ChildProcessWithoutNullStreams>()

afterEach(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGKILL')
      await exited
    }
  }
  children.clear()
})

const fixtures = fileURLToPath(new URL('../../helpers/fixtures/', import.meta.url))

/** A child speaking the fixtures' line protocol: JSON lines out, `stats` lines in. */
function lineChild(script: string, args: string[], ulimit: string) {
  const child = spawn(
    'sh',
    ['-c', `${ulimit} && exec "$0" "$@"`, process.execPath, `${fixtures}${script}`, ...args],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  )
  children.add(child)
  let stderr = ''
  child.stderr.setEncoding('utf8')
  child.stderr.on('data', (chunk: string) => {
    stderr += chunk
  })
  const lines: string[] = []
  const waiters: Array<(line: string) => void> = []
  let pending = ''
  child.stdout.setEncoding('utf8')
  child.stdout.on('data', (chunk: string) => {
    pending += chunk
    let newline = pending.indexOf('\n')
    while (newline !== -1) {
      const line = pending.slice(0, newline)
      pending = pending.slice(newline + 1)
      const waiter = waiters.shift()
      if (waiter === undefined) lines.push(line)
      else waiter(line)
      newline = pending.indexOf('\n')
    }
  })
  const nextLine = () =>
    new Promise<string>((resolve, reject) => {
      const line = lines.shift()
      if (line !== undefined) resolve(line)
      else {
        waiters.push(resolve)
        child.once('exit', () => reject(new Error(`${script} exited: ${stderr}`)))
      }
    })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return {
    child,
    exited,
    stderr: () => stderr,
    async first<T>(): Promise<T> {
      return JSON.parse(await nextLine()) as T
    },
    async stats<T>(): Promise<T> {
      child.stdin.write('stats\n')
      return JSON.parse(await nextLine()) as T
    },
    end() {
      child.stdin.end()
    },
  }
}

interface UploadCounts {
  attempted: number
  open: number
  failed: number
  answeredThenClosed: number
  closedUnanswered: number
  statuses: Record<string, number>
}

interface ServerStats {
  connections: { open: number; refused: number; shed: number }
  handler: { sessions: number; inFlight: number; streams: number }
}

test('1,100 slow uploads do not keep an ordinary client out, and are shed within the body timeout', async () => {
  const bodyTimeoutMs = 6000
  // The server under test gets a 1,024-file limit and its default connection cap.
  const server = lineChild('serve-demo.mjs', [JSON.stringify({ bodyTimeoutMs })], 'ulimit -n 1024')
  const { url, maxConnections } = await server.first<{ url: string; maxConnections: number }>()
  expect(maxConnections).toBe(768)

  // The attackers get a raised limit, so theirs is not the bottleneck.
  const raise = 'ulimit -n 4096 2>/dev/null || ulimit -n "$(ulimit -Hn)"'
  const attackers = [0, 1].map(() => lineChild('slow-uploads.mjs', [url, '550', '500'], raise))
  const attackStarted = Date.now()
  const totals = async () => {
    const all = await Promise.all(attackers.map((attacker) => attacker.stats<UploadCounts>()))
    return all.reduce((sum, counts) => ({
      attempted: sum.attempted + counts.attempted,
      open: sum.open + counts.open,
      failed: sum.failed + counts.failed,
      answeredThenClosed: sum.answeredThenClosed + counts.answeredThenClosed,
      closedUnanswered: sum.closedUnanswered + counts.closedUnanswered,
      statuses: Object.fromEntries(
        [...new Set([...Object.keys(sum.statuses), ...Object.keys(counts.statuses)])].map((status) => [
          status,
          (sum.statuses[status] ?? 0) + (counts.statuses[status] ?? 0),
        ]),
      ),
    }))
  }
  // All 1,100 have connected (some closed at once at the cap).
  await eventually(async () => {
    const counts = await totals()
    return counts.attempted === 1100 && counts.open + counts.failed + counts.closedUnanswered === 1100
  }, 15_000)
  await sleep(1200)
  const duringAttack = await totals()
  expect(duringAttack.open).toBeGreaterThan(600)

  // An ordinary client: initialize, then a tool call.
  const clientStarted = Date.now()
  const { headers } = await initialize(url)
  const call = await post(
    url,
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'echo', arguments: { message: 'served' } },
    },
    headers,
  )
  const clientMs = Date.now() - clientStarted
  expect(call.json).toMatchObject({ result: { content: [{ type: 'text', text: 'served' }] } })
  // Served while the slow uploads were still holding their connections, not after they timed out.
  const afterClient = await totals()
  expect(afterClient.open).toBeGreaterThan(600)
  const pressure = await server.stats<ServerStats>()

  // Every slow upload is closed by the server within the body timeout (plus a check beat).
  await eventually(async () => (await totals()).open === 0, bodyTimeoutMs + 5000)
  const shedMs = Date.now() - attackStarted
  const final = await totals()
  expect(final.failed).toBe(0)
  expect(final.answeredThenClosed + final.closedUnanswered).toBe(1100)
  expect(Object.keys(final.statuses).every((status) => status === '408')).toBe(true)
  const after = await server.stats<ServerStats>()
  expect(after.handler.inFlight).toBe(0)
  // A refused connection half-closes and is let go when its client closes too (or after the 1 s
  // linger): the server's count follows the clients' a moment later.
  await eventually(async () => (await server.stats<ServerStats>()).connections.open <= 2, 5000)
  console.info(
    `slow uploads: ${JSON.stringify(final)}; server at the peak ${JSON.stringify(pressure.connections)}; ` +
      `ordinary client served in ${clientMs} ms; all uploads closed ${shedMs} ms after the attack began`,
  )

  for (const attacker of attackers) attacker.end()
  server.end()
  expect(await Promise.all([server.exited, ...attackers.map((attacker) => attacker.exited)])).toEqual([
    0, 0, 0,
  ])
}, 45_000)
