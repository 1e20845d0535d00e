// The servers of the store rows: `mcp-kit serve` on the bench registry, on Redis (its own key
// prefix, `mcp-kit-bench:<uuid>:`, deleted when it stops) or on its in-memory store (the anchor),
// and the row shape they share.

import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { startHttpServer } from '../../http-server-process.js'
import { checkToolCall } from '../../modern-http.js'
import { deletePrefix } from '../../redis.js'
import { makeRow } from '../../rows.js'

/** @typedef {'redis' | 'memory'} StoreKind */

/** Both stores, in the order every round runs them. */
export const storeKinds = /** @type {const} */ (['redis', 'memory'])
export const storeNames = { redis: 'Redis store', memory: 'memory store' }
export const anchorName = 'same server, memory store'
/** The protocol version of the 2025 session rows: the one whose sessions are shared through the store. */
export const sessionVersion = '2025-11-25'
const memoryProbe = fileURLToPath(new URL('../../memory-probe.js', import.meta.url))

/**
 * @param {import('../../context.js').Context} context
 * @param {import('../../options.js').BenchOptions} options
 * @param {StoreKind} kind
 * @param {{ prefix?: string, memoryFile?: string }} settings
 */
function serverCommand(context, options, kind, { prefix, memoryFile }) {
  // Finished tasks must outlive the memory row; the bench deletes its prefix afterwards anyway.
  const serve = [context.kitBin, 'serve', context.servers.benchRegistry, '--port', '0', '--task-keep', '3600']
  if (kind === 'redis')
    serve.push('--store', options.redisUrl, '--store-prefix', /** @type {string} */ (prefix))
  // A store set in the environment must not turn the memory side into a Redis one.
  const { MCP_KIT_STORE: _ignored, ...env } = context.env
  return {
    label: `mcp-kit serve (${storeNames[kind]})`,
    command: context.node,
    args: memoryFile === undefined ? serve : ['--expose-gc', '--import', memoryProbe, ...serve],
    env: memoryFile === undefined ? env : { ...env, MCP_KIT_BENCH_MEMORY_FILE: memoryFile },
  }
}

/**
 * @typedef {{ url: string, pid: number, prefix: string | undefined }} StoreServer
 */

/**
 * Starts a fresh server on the store, checks one 2026 call, runs `body`, stops the server and
 * deletes what it left in Redis.
 * @template T
 * @param {import('../../context.js').Context} context
 * @param {import('../../options.js').BenchOptions} options
 * @param {StoreKind} kind
 * @param {(server: StoreServer) => Promise<T>} body
 * @param {{ memoryFile?: string }} [settings]
 * @returns {Promise<T>}
 */
export async function withStoreServer(context, options, kind, body, { memoryFile } = {}) {
  const prefix = kind === 'redis' ? `mcp-kit-bench:${randomUUID()}:` : undefined
  const server = await startHttpServer(serverCommand(context, options, kind, { prefix, memoryFile }))
  try {
    await checkToolCall(server.url, 'echo', { message: 'bench' }, 'bench')
    return await body({ ...server, prefix })
  } finally {
    await server.stop()
    if (prefix !== undefined) await deletePrefix(options.redisUrl, prefix)
  }
}

/**
 * @typedef {{ id: string, name: string, unit: string, anchorName?: string,
 *   target?: import('../../rows.js').Target }} PlannedRow
 */

/**
 * Fills a planned row with samples.
 * @param {PlannedRow} planned
 * @param {number[]} kit
 * @param {number[] | undefined} anchor
 * @param {string} [note]
 */
export function storeRow(planned, kit, anchor, note) {
  return makeRow({
    ...planned,
    group: 'store',
    kit,
    ...(anchor === undefined || planned.anchorName === undefined
      ? {}
      : { anchor: { name: planned.anchorName, samples: anchor } }),
    ...(note === undefined ? {} : { note }),
  })
}

/** The value at `fraction` (0.99: p99) of `values`. */
export function percentile(values, fraction) {
  const sorted = [...values].sort((left, right) => left - right)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]
}
