// The Store on Redis (`@redis/client`), for several instances behind one endpoint. Keys and
// channels carry a prefix, so one Redis can serve several deployments (and tests). Two
// connections: one for commands, one for subscriptions (Redis puts a subscribing connection in
// a mode where it can do nothing else). The client reconnects by itself; while it is away the
// store is not ready, and subscriptions are restored when it comes back. A Redis Cluster
// (`redis-cluster://…`) is served by cluster-store.ts.

import { ServerError } from '../../errors.js'
import type { TaskStore } from '../../tasks/store.js'
import type { Store, StoredEvent } from '../store.js'
import { takeArguments, takeOf, takeTokensScript } from '../token-bucket.js'
import { appendArguments, appendEventScript, closeTimeoutMs, evictionWarning, withTimeout } from './common.js'
import { storeConnectError } from './connect-errors.js'
import type { RedisStoreOptions } from './options.js'
import { singleTaskKeys } from './task-keys.js'
import { redisTaskStore, taskScripts } from './task-store.js'
import { isClusterUrl, redactedUrl, redisUrlProblem } from './url.js'

/**
 * `@redis/client` is an optional peer dependency: installed by whoever uses a Redis store (the
 * `mcp-kit` CLI does), not by every user of the server. Without it: a clear error, not a stack.
 */
async function loadRedis<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load()
  } catch (error) {
    const code = (error as { code?: unknown })?.code
    if (code !== 'ERR_MODULE_NOT_FOUND' || !String((error as Error).message).includes('@redis/client'))
      throw error
    throw new ServerError(
      'store_unavailable',
      'a Redis store needs the optional dependency @redis/client: install it beside @mcp-kit/server (npm install @redis/client)',
      { details: { problem: 'missing_dependency' }, cause: error },
    )
  }
}

/**
 * Connects to Redis, or to a Redis Cluster by one of its nodes; rejects with a clear message when
 * it cannot be reached in time.
 */
export async function redisStore(options: RedisStoreOptions): Promise<Store> {
  const problem = redisUrlProblem(options.url)
  if (problem !== undefined) throw new Error(`invalid store URL ${redactedUrl(options.url)}: ${problem}`)
  if (options.ca !== undefined && !/^rediss(-cluster)?:/i.test(options.url))
    throw new Error(`a CA is for a TLS store (rediss://…), not ${redactedUrl(options.url)}`)
  if (isClusterUrl(options.url)) {
    const { redisClusterStore } = await loadRedis(() => import('./cluster-store.js'))
    return redisClusterStore(options)
  }
  const { createClient, defineScript } = await loadRedis(() => import('@redis/client'))
  const scripts = {
    writeTask: defineScript(taskScripts.writeTask),
    appendEvent: defineScript(appendEventScript),
    takeTokens: defineScript(takeTokensScript),
  }
  const prefix = options.prefix ?? 'mcp-kit:'
  const timeoutMs = options.connectTimeoutMs ?? 5000
  const where = redactedUrl(options.url)
  let connectedOnce = false
  const make = () => {
    const client = createClient({
      url: options.url,
      scripts,
      socket: {
        ...(options.ca === undefined ? {} : { ca: options.ca as string | Buffer | Array<string | Buffer> }),
        connectTimeout: timeoutMs,
        // Before the first connection: fail (the caller reports it); afterwards: keep trying.
        reconnectStrategy: (retries: number) => (connectedOnce ? Math.min(100 * 2 ** retries, 2000) : false),
      },
    })
    client.on('error', (error: Error) => {
      if (connectedOnce) options.onError?.(new Error(`redis ${where}: ${error.message}`))
    })
    return client
  }
  const commands = make()
  const subscriber = make()
  try {
    await withTimeout(Promise.all([commands.connect(), subscriber.connect()]), timeoutMs, where)
  } catch (error) {
    await Promise.allSettled([commands.destroy(), subscriber.destroy()])
    throw storeConnectError(error, where)
  }
  connectedOnce = true
  const warning = await evictionWarning(commands, where)
  if (warning !== undefined) options.onWarning?.(warning)
  const reconnected = new Set<() => void>()
  let tasks: TaskStore | undefined
  // A connection back after being away: what was published meanwhile was lost to this instance
  // (the subscriber's subscriptions are restored by the client), so listeners re-read and write
  // back. Once both connections are ready: after a Redis restart that is once, not twice.
  const back = () => {
    if (!commands.isReady || !subscriber.isReady) return
    for (const listener of reconnected) listener()
  }
  commands.on('ready', back)
  subscriber.on('ready', back)
  const store: Store = {
    kind: 'redis',
    async get(key) {
      return (await commands.get(prefix + key)) ?? undefined
    },
    async setIfAbsent(key, value, ttlMs) {
      const done = await commands.set(
        prefix + key,
        value,
        ttlMs === undefined ? { NX: true } : { NX: true, PX: ttlMs },
      )
      return done === 'OK'
    },
    async set(key, value, ttlMs) {
      await commands.set(prefix + key, value, ttlMs === undefined ? {} : { PX: ttlMs })
    },
    async getAndTouch(key, ttlMs) {
      return (await commands.getEx(prefix + key, { type: 'PX', value: ttlMs })) ?? undefined
    },
    async delete(key) {
      await commands.del(prefix + key)
    },
    async appendEvent(log, entry, options) {
      const id = await commands.appendEvent(
        [prefix + log, options.once === undefined ? '' : prefix + options.once],
        appendArguments(
          entry,
          options,
          options.channel === undefined ? '' : prefix + options.channel,
          'PUBLISH',
        ),
      )
      return typeof id === 'string' ? id : undefined
    },
    async readEvents(log, afterId) {
      const entries = await commands.xRange(prefix + log, afterId === '' ? '-' : `(${afterId}`, '+')
      return (entries ?? []).map(
        (entry): StoredEvent => ({
          id: entry.id,
          data: String(entry.message.data ?? ''),
          end: entry.message.end === '1',
        }),
      )
    },
    async lastEventId(log) {
      const [newest] = (await commands.xRevRange(prefix + log, '+', '-', { COUNT: 1 })) ?? []
      return newest?.id ?? '0-0'
    },
    async publish(channel, message) {
      if (!commands.isOpen) throw new Error('the store is closed')
      await commands.publish(prefix + channel, message)
    },
    async subscribe(channel, listener) {
      await subscriber.subscribe(prefix + channel, listener)
      return async () => {
        // A closed client would queue the command forever; one that is reconnecting sends it
        // when it is back (else it would subscribe again), but nobody waits for that.
        if (!subscriber.isOpen) return
        const done = subscriber.unsubscribe(prefix + channel, listener).catch(() => {})
        if (subscriber.isReady) await done
      }
    },
    async takeTokens(key, bucket, cost = 1) {
      return takeOf(await commands.takeTokens(prefix + key, takeArguments(bucket, cost)))
    },
    ready: () => commands.isReady && subscriber.isReady,
    onReconnect(listener) {
      reconnected.add(listener)
      return () => reconnected.delete(listener)
    },
    taskStore() {
      tasks ??= redisTaskStore(commands, store, singleTaskKeys(prefix))
      return tasks
    },
    async close() {
      // Connected: what was sent is answered first (within a bound). Away: nothing will be, and
      // close() would wait for Redis to come back, so commands still queued fail now.
      const end = async (client: typeof commands) => {
        if (!client.isOpen) return
        if (!client.isReady) return client.destroy()
        await withTimeout(client.close(), closeTimeoutMs, where).catch(() => client.destroy())
      }
      await Promise.allSettled([end(commands), end(subscriber)])
    },
  }
  return store
}
