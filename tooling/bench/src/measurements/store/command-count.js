// Counting the Redis commands one `mcp-kit serve` instance sends while some work runs: MONITOR
// shows every command Redis runs; the instance's own are told apart by the local ports of its
// Redis connections (read from /proc), so other clients of the same Redis are left out. Commands
// run inside scripts (MONITOR shows them as coming from `lua`) are counted apart, on the
// instance's key prefix.

import { randomUUID } from 'node:crypto'
import { readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { connectRedis } from '../../redis.js'

/**
 * The local ports of a process's TCP connections to `port` (its Redis connections), from /proc:
 * the socket inodes among its file descriptors, looked up in its network namespace's tables.
 * @param {number} pid
 * @param {number} port
 */
function connectionPorts(pid, port) {
  const inodes = new Set()
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = readlinkSync(`/proc/${pid}/fd/${fd}`).match(/^socket:\[(\d+)\]$/)
      if (match) inodes.add(match[1])
    } catch {
      // closed meanwhile
    }
  }
  const ports = []
  for (const table of ['tcp', 'tcp6']) {
    let text = ''
    try {
      text = readFileSync(`/proc/${pid}/net/${table}`, 'utf8')
    } catch {
      continue
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/)
      if (fields.length < 10 || !inodes.has(fields[9])) continue
      const local = Number.parseInt(fields[1].split(':').at(-1) ?? '', 16)
      const remote = Number.parseInt(fields[2].split(':').at(-1) ?? '', 16)
      if (remote === port) ports.push(local)
    }
  }
  return ports
}

/** How long the server's fire-and-forget commands get to reach Redis after the work. */
const settleMs = 100

/** The task upkeep's timer (every 10 s): ZREMRANGEBYSCORE of expired index entries (and, once, UNLINK of an earlier version's index). */
const taskUpkeepCommands = new Set(['zremrangebyscore', 'unlink'])

/**
 * Whether a command is the instance's background upkeep rather than any request's work: the task
 * upkeep, and the heartbeat (a SET of `instance:<tag>` every 2 s).
 * @param {string} command  lower case
 * @param {string} line     the MONITOR line
 * @param {string} prefix
 */
function isUpkeep(command, line, prefix) {
  return taskUpkeepCommands.has(command) || (command === 'set' && line.includes(`"${prefix}instance:`))
}

/**
 * @typedef {{ sent: Record<string, number>, scripted: Record<string, number>,
 *   upkeep: Record<string, number> }} CommandTally
 */

/**
 * Runs `work` while MONITOR watches Redis; counts the commands sent on the server's own Redis
 * connections (by their local ports), those its scripts ran on its prefix, and its upkeep apart.
 * @param {import('../../options.js').BenchOptions} options
 * @param {{ pid: number, prefix: string }} server
 * @param {() => Promise<void>} work
 * @returns {Promise<CommandTally>}
 */
export async function countCommands(options, server, work) {
  const redisPort = Number(new URL(options.redisUrl).port || 6379)
  const ports = new Set(connectionPorts(server.pid, redisPort).map((port) => `:${port}`))
  if (ports.size < 2) {
    throw new Error(`found ${ports.size} Redis connections of the server (pid ${server.pid}), expected 2`)
  }
  const monitor = await connectRedis(options.redisUrl)
  const control = await connectRedis(options.redisUrl)
  const marker = `mcp-kit-bench-marker-${randomUUID()}`
  /** @type {CommandTally} */
  const tally = { sent: {}, scripted: {}, upkeep: {} }
  const add = (counts, command) => {
    counts[command] = (counts[command] ?? 0) + 1
  }
  let markerSeen = () => {}
  const done = new Promise((resolve) => {
    markerSeen = () => resolve(undefined)
  })
  try {
    await monitor.monitor((line) => {
      // 1712345678.123456 [0 127.0.0.1:54321] "GET" "mcp-kit-bench:…:task:…"
      const match = String(line).match(/^\d+\.\d+ \[\d+ ([^\]]+)\] "((?:[^"\\]|\\.)*)"/)
      if (match === null) return
      const [, address, name] = match
      if (line.includes(marker)) return markerSeen()
      const command = name.toLowerCase()
      if (address === 'lua') {
        if (line.includes(server.prefix)) add(tally.scripted, command)
        return
      }
      if (!ports.has(address.slice(address.lastIndexOf(':')))) return
      add(isUpkeep(command, line, server.prefix) ? tally.upkeep : tally.sent, command)
    })
    await work()
    // The server copies SSE events to the store without waiting for Redis: let the last copies
    // of the work reach Redis. Everything Redis ran before the marker is fed to MONITOR before it.
    await new Promise((resolve) => setTimeout(resolve, settleMs))
    await control.echo(marker)
    let timer
    await Promise.race([
      done,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('MONITOR did not show the end marker within 5 s')), 5000)
      }),
    ]).finally(() => clearTimeout(timer))
  } finally {
    monitor.destroy()
    control.destroy()
  }
  return tally
}

/** @param {Record<string, number>} counts */
export const total = (counts) => Object.values(counts).reduce((sum, value) => sum + value, 0)

/**
 * `eval 2, get 1.3`: the commands per operation, most frequent first.
 * @param {Record<string, number>} counts
 * @param {number} operations
 */
export function breakdown(counts, operations) {
  const entries = Object.entries(counts).sort(([, left], [, right]) => right - left)
  if (entries.length === 0) return 'none'
  return entries.map(([name, value]) => `${name} ${+(value / operations).toFixed(2)}`).join(', ')
}
