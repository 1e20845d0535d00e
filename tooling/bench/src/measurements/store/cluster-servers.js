// What the cluster rows run on: `mcp-kit serve` on one Redis or on a Redis Cluster (with or
// without WAIT), each with a fresh key prefix deleted afterwards; the redis-server processes
// behind a store URL (their CPU is counted); and the session churn the rows time.

import { randomUUID } from 'node:crypto'
import { createClient, createCluster } from '@redis/client'
import { startHttpServer } from '../../http-server-process.js'
import { openSession } from '../../http-session.js'
import { checkToolCall } from '../../modern-http.js'
import { deletePrefix } from '../../redis.js'
import { sessionVersion } from './server.js'

/** @typedef {'redis' | 'cluster' | 'cluster-nowait'} ClusterKind */
export const kinds = /** @type {const} */ (['redis', 'cluster', 'cluster-nowait'])
export const names = { redis: 'one Redis', cluster: 'cluster (WAIT 1)', 'cluster-nowait': 'cluster, no WAIT' }

/** host and port of a cluster URL's seed node. */
function seedOf(url) {
  const { hostname, port } = new URL(url.replace(/^rediss?-cluster:/, 'http:'))
  return { host: hostname, port: Number(port) }
}

/** Deletes a prefix's keys on every master of a cluster. */
async function deleteClusterPrefix(url, prefix) {
  const cluster = createCluster({ rootNodes: [{ socket: seedOf(url) }] })
  cluster.on('error', () => {})
  await cluster.connect()
  try {
    for (const master of cluster.masters) {
      const client = await cluster.nodeClient(master)
      for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 }))
        for (const key of keys) await client.unlink(key)
    }
  } finally {
    cluster.destroy()
  }
}

/** The process id of the Redis at `url` (INFO server), to read its CPU time from /proc. */
async function processIdOf(url) {
  const client = createClient({ url, socket: { reconnectStrategy: false } })
  client.on('error', () => {})
  await client.connect()
  try {
    const match = /^process_id:(\d+)/m.exec(await client.info('server'))
    if (match === null) throw new Error(`INFO server of ${url} names no process_id`)
    return Number(match[1])
  } finally {
    client.destroy()
  }
}

/**
 * The redis-server processes behind a store URL, by role: the one Redis (a master), or every
 * node of a cluster.
 * @returns {Promise<{ masters: number[], replicas: number[] }>}
 */
export async function redisPids(url) {
  if (!/^rediss?-cluster:/.test(url)) return { masters: [await processIdOf(url)], replicas: [] }
  const { host, port } = seedOf(url)
  const seed = createClient({ socket: { host, port, reconnectStrategy: false } })
  seed.on('error', () => {})
  await seed.connect()
  try {
    const nodes = String(await seed.sendCommand(['CLUSTER', 'NODES']))
      .trim()
      .split('\n')
      .map((line) => line.split(' '))
      .filter((fields) => !(fields[2] ?? '').includes('fail'))
    const pidsOf = (role) =>
      Promise.all(
        nodes
          .filter((fields) => (fields[2] ?? '').split(',').includes(role))
          .map((fields) => processIdOf(`redis://${(fields[1] ?? '').split('@')[0]}`)),
      )
    return { masters: await pidsOf('master'), replicas: await pidsOf('slave') }
  } finally {
    seed.destroy()
  }
}

/** A fresh `serve` on a store of this kind, checked with one call; its keys deleted afterwards. */
export async function withServer(context, urls, kind, body) {
  const prefix = `mcp-kit-bench:${randomUUID()}:`
  const storeUrl =
    kind === 'redis' ? urls.redis : kind === 'cluster' ? urls.cluster : `${urls.cluster}?wait=0`
  // A store set in the environment must not change what is measured.
  const { MCP_KIT_STORE: _ignored, ...env } = context.env
  const server = await startHttpServer({
    label: `mcp-kit serve (${names[kind]})`,
    command: context.node,
    args: [context.kitBin, 'serve', context.servers.benchRegistry, '--port', '0'].concat([
      '--store',
      storeUrl,
      '--store-prefix',
      prefix,
    ]),
    env,
  })
  try {
    await checkToolCall(server.url, 'echo', { message: 'bench' }, 'bench')
    return await body(server)
  } finally {
    await server.stop()
    if (kind === 'redis') await deletePrefix(urls.redis, prefix)
    else await deleteClusterPrefix(urls.cluster, prefix)
  }
}

/**
 * 2025-11-25 sessions opened (initialize + initialized) and ended (DELETE) by `clients` at once
 * until `until` (hrtime ms); resolves to how many.
 */
export async function churnSessions(url, { until, clients }) {
  let opened = 0
  const now = () => Number(process.hrtime.bigint()) / 1e6
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (now() < until) {
        const session = await openSession(url, { protocolVersion: sessionVersion })
        const ended = await fetch(url, {
          method: 'DELETE',
          headers: { 'mcp-session-id': session.sessionId, 'mcp-protocol-version': session.protocolVersion },
        })
        await ended.arrayBuffer()
        if (ended.status !== 200 && ended.status !== 204) throw new Error(`DELETE answered ${ended.status}`)
        opened++
      }
    }),
  )
  return opened
}
