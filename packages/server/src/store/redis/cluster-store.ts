// The Store on a Redis Cluster (`@redis/client`'s createCluster): one seed node in the URL, the
// others discovered. Keys are laid out for slots: whatever one script touches shares a hash tag
// (a session's keys and its channel: Store.hashTag; a task, its index shard and its notice
// channel: shardedTaskKeys), so no call is CROSSSLOT, and the task index is sharded so no slot is
// hot. Pub/sub is sharded (SPUBLISH/SSUBSCRIBE): a message goes to the master of its channel's
// slot and its subscribers, not over the cluster bus to every node. A failover is ridden out by
// cluster-failover.ts: commands are sent again until the promoted replica answers, and the
// writes a client was told about wait for a replica first (cluster-wait.ts), on a second
// set of connections.

import { createCluster, defineScript } from '@redis/client'
import type { TaskStore } from '../../tasks/store.js'
import type { Store, StoredEvent } from '../store.js'
import { takeArguments, takeOf, takeTokensScript } from '../token-bucket.js'
import { watchFailovers } from './cluster-failover.js'
import { replicaWaits } from './cluster-wait.js'
import { appendArguments, appendEventScript, closeTimeoutMs, evictionWarning, withTimeout } from './common.js'
import { storeConnectError } from './connect-errors.js'
import type { RedisStoreOptions } from './options.js'
import { shardedTaskKeys } from './task-keys.js'
import { type RedisTaskCommands, redisTaskStore, taskScripts } from './task-store.js'
import { clusterTarget, redactedUrl } from './url.js'

/**
 * Index shards of the task store: enough hash tags that the tasks' slots spread evenly over many
 * masters (each upkeep round trims each shard once).
 */
const taskShards = 256

/** The hash tag of a key as Redis Cluster reads it: the text in its first `{…}`, else the key. */
export function slotTag(key: string): string {
  const open = key.indexOf('{')
  const close = open === -1 ? -1 : key.indexOf('}', open + 1)
  return close > open + 1 ? key.slice(open + 1, close) : key
}

/** Connects to the cluster through its seed node; rejects with a clear message when it cannot. */
export async function redisClusterStore(options: RedisStoreOptions): Promise<Store> {
  const prefix = options.prefix ?? 'mcp-kit:'
  const where = redactedUrl(options.url)
  if (/[{}]/.test(prefix))
    throw new Error(`a cluster store's prefix may not hold { or } (its keys' hash tags): ${prefix}`)
  const target = clusterTarget(options.url)
  const timeoutMs = options.connectTimeoutMs ?? 5000
  let connectedOnce = false
  const cluster = createCluster({
    rootNodes: [{ socket: { ...target.seed } }],
    defaults: {
      ...(target.username === undefined ? {} : { username: target.username }),
      ...(target.password === undefined ? {} : { password: target.password }),
      socket: {
        ...(target.tls ? { tls: true as const } : {}),
        ...(options.ca === undefined ? {} : { ca: options.ca as string | Buffer | Array<string | Buffer> }),
        connectTimeout: timeoutMs,
        reconnectStrategy: (retries: number) => (connectedOnce ? Math.min(50 * 2 ** retries, 500) : false),
      },
    },
    scripts: {
      writeTask: defineScript(taskScripts.writeTask),
      appendEvent: defineScript(appendEventScript),
      takeTokens: defineScript(takeTokensScript),
    },
    // A master that stops answering: read the topology again soon (its replica takes over).
    topologyRefreshOnReconnectionAttemptStrategy: 250,
  })
  let lastError: unknown
  cluster.on('error', (error: unknown) => {
    lastError = error
  })
  try {
    await withTimeout(cluster.connect(), timeoutMs, where)
  } catch (error) {
    cluster.destroy()
    // "All the root nodes are unavailable" says nothing: the seed's own failure says why.
    throw storeConnectError(lastError ?? error, where)
  }
  // The writes that wait for a replica have connections of their own (WAIT blocks its connection).
  const writer = cluster.duplicate()
  writer.on('error', () => {})
  try {
    await withTimeout(writer.connect(), timeoutMs, where)
  } catch (error) {
    cluster.destroy()
    writer.destroy()
    throw storeConnectError(error, where)
  }
  connectedOnce = true
  for (const master of cluster.masters) {
    const warning = await evictionWarning(await cluster.nodeClient(master), `${where} (${master.address})`)
    if (warning !== undefined) {
      options.onWarning?.(warning)
      break
    }
  }
  const failover = watchFailovers(cluster as never, {
    failoverTimeoutMs: options.failoverTimeoutMs ?? 15_000,
    replicate: replicaWaits(writer as never, { ...target.settings, report: options.onError }),
    report: options.onError,
  })
  const { retry, durable } = failover
  let tasks: TaskStore | undefined

  const taskCommands: RedisTaskCommands = {
    get: (key) => retry(() => cluster.get(key)),
    mGet: (keys) => retry(() => cluster.mGet(keys)),
    zRange: (key, start, stop) => retry(() => cluster.zRange(key, start, stop)),
    zRemRangeByScore: (key, min, max) => retry(() => cluster.zRemRangeByScore(key, min, max)),
    unlink: (key) => retry(() => cluster.unlink(key)),
    writeTask(keys, args, mustSurvive) {
      // Sent again after a failed connection, the write may find itself: the first attempt
      // landed and only its answer was lost. That is a write, not a conflict.
      let sent = false
      const write = async () => {
        const again = sent
        sent = true
        const found = await (mustSurvive === true ? writer : cluster).writeTask(keys, args)
        return again && found === args[1] ? 1 : found
      }
      return mustSurvive === true ? durable(keys[0], write) : retry(write)
    },
  }

  const store: Store = {
    kind: 'redis-cluster',
    hashTag: (group) => `{${group}}`,
    async get(key) {
      return (await retry(() => cluster.get(prefix + key))) ?? undefined
    },
    async setIfAbsent(key, value, ttlMs) {
      const options = ttlMs === undefined ? { NX: true as const } : { NX: true as const, PX: ttlMs }
      return (await durable(prefix + key, () => writer.set(prefix + key, value, options))) === 'OK'
    },
    async set(key, value, ttlMs, how) {
      const expiry = ttlMs === undefined ? {} : { PX: ttlMs }
      if (how?.volatile === true) await retry(() => cluster.set(prefix + key, value, expiry))
      else await durable(prefix + key, () => writer.set(prefix + key, value, expiry))
    },
    async getAndTouch(key, ttlMs) {
      return (await retry(() => cluster.getEx(prefix + key, { type: 'PX', value: ttlMs }))) ?? undefined
    },
    async delete(key) {
      await durable(prefix + key, () => writer.del(prefix + key))
    },
    async appendEvent(log, entry, options) {
      const logKey = prefix + log
      // No `once`: the log itself in its place (the script skips it), as every key must be in one slot.
      const onceKey = options.once === undefined ? logKey : prefix + options.once
      if (slotTag(onceKey) !== slotTag(logKey))
        throw new Error(`the once key ${options.once} does not share the hash tag of ${log}`)
      const channel = options.channel === undefined ? '' : prefix + options.channel
      const inScript = channel === '' || slotTag(channel) === slotTag(logKey)
      const id = await durable(logKey, () =>
        writer.appendEvent(
          [logKey, onceKey],
          appendArguments(entry, options, inScript ? channel : '', 'SPUBLISH'),
        ),
      )
      if (typeof id !== 'string') return undefined
      if (!inScript)
        await retry(() =>
          cluster.sPublish(channel, JSON.stringify({ id, data: entry.data, end: entry.end === true })),
        )
      return id
    },
    async readEvents(log, afterId) {
      const entries = await retry(() =>
        cluster.xRange(prefix + log, afterId === '' ? '-' : `(${afterId}`, '+'),
      )
      return (entries ?? []).map(
        (entry): StoredEvent => ({
          id: entry.id,
          data: String(entry.message.data ?? ''),
          end: entry.message.end === '1',
        }),
      )
    },
    async lastEventId(log) {
      const [newest] = (await retry(() => cluster.xRevRange(prefix + log, '+', '-', { COUNT: 1 }))) ?? []
      return newest?.id ?? '0-0'
    },
    async publish(channel, message) {
      if (!cluster.isOpen) throw new Error('the store is closed')
      await retry(() => cluster.sPublish(prefix + channel, message))
    },
    async subscribe(channel, listener) {
      await retry(() => cluster.sSubscribe(prefix + channel, listener))
      return async () => {
        if (!cluster.isOpen) return
        // A shard away would hold the command until it is back: nobody waits for that long.
        await withTimeout(cluster.sUnsubscribe(prefix + channel, listener), 1000, where).catch(() => {})
      }
    },
    async takeTokens(key, bucket, cost = 1) {
      // A limit's count may be lost in a failover: nothing waits for a replica.
      return takeOf(await retry(() => cluster.takeTokens(prefix + key, takeArguments(bucket, cost))))
    },
    ready: () => failover.ready(),
    onReconnect: (listener) => failover.onBack(listener),
    taskStore() {
      tasks ??= redisTaskStore(taskCommands, store, shardedTaskKeys(prefix, taskShards))
      return tasks
    },
    async close() {
      failover.close()
      const end = async (client: typeof cluster) => {
        if (!client.isOpen) return
        await withTimeout(client.close(), closeTimeoutMs, where).catch(() => client.destroy())
      }
      await Promise.all([end(cluster), end(writer)])
    },
  }
  return store
}
