// The Store on Redis (`@redis/client`), for several instances behind one endpoint. Keys and
// channels carry a prefix, so one Redis can serve several deployments (and tests). Two
// connections: one for commands, one for subscriptions (Redis puts a subscribing connection in
// a mode where it can do nothing else). The client reconnects by itself; while it is away the
// store is not ready, and subscriptions are restored when it comes back.

import type { CommandParser } from '@redis/client'
import type { TaskStore } from '../tasks/task-store.js'
import { storeConnectError } from './redis-connect-errors.js'
import { redisTaskStore, taskScripts } from './redis-task-store.js'
import type { Store, StoredEvent } from './store.js'

// KEYS[1] the log, KEYS[2] the `once` key ('' = none); ARGV: id ('*' = made by Redis), maxLength,
// ttlMs, channel ('' = none), data, end ('1' or ''). One round trip, atomic: the id order is the
// publication order.
const appendScript = `
if KEYS[2] ~= '' then
  if not redis.call('SET', KEYS[2], '1', 'NX', 'PX', ARGV[3]) then return false end
end
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], ARGV[1], 'data', ARGV[5], 'end', ARGV[6])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
if ARGV[4] ~= '' then
  redis.call('PUBLISH', ARGV[4], cjson.encode({ id = id, data = ARGV[5], ['end'] = ARGV[6] == '1' }))
end
return id
`

export interface RedisStoreOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://…`. */
  url: string
  /** Put before every key and channel (default `mcp-kit:`). */
  prefix?: string
  /**
   * PEM certificates of the authorities to trust for a `rediss://` store, instead of Node's
   * defaults (which `NODE_EXTRA_CA_CERTS` extends): a Redis with a private CA is verified, never
   * accepted unverified.
   */
  ca?: string | Buffer | ReadonlyArray<string | Buffer>
  /** How long the first connection may take before `redisStore` fails (default 5 s). */
  connectTimeoutMs?: number
  /** Reports connection trouble (the operator's log). */
  onError?: (error: Error) => void
  /** Told once at start when Redis is set up to lose what the store keeps (it evicts keys). */
  onWarning?: (message: string) => void
}

/**
 * What is wrong with a store URL, or undefined when it is a redis:// or rediss:// URL the client
 * can use (host, port 1–65535, no path or a database number).
 */
export function redisUrlProblem(url: string): string | undefined {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return 'not a URL: expected redis://[user:password@]host:port[/database] or rediss://…'
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    return 'expected redis://[user:password@]host:port[/database] or rediss://…'
  }
  if (parsed.hostname === '') return 'no host'
  if (parsed.port === '0') return 'port 0: expected a port from 1 to 65535'
  if (!/^(\/\d{0,9})?$/.test(parsed.pathname)) {
    return `the path must be a database number (/0, /1, …), not ${JSON.stringify(parsed.pathname)}`
  }
  return undefined
}

/** The URL for messages and logs: a password in it shown as `***`. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (!parsed.password) return url
    parsed.password = '***'
    return parsed.href
  } catch {
    // Not parsable: hide everything between the scheme and the last `@` (a password may hold
    // any character, `/` and `@` included).
    return url.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/).*@/s, '$1***@')
  }
}

/** Connects to Redis; rejects with a clear message when it cannot be reached in time. */
export async function redisStore(options: RedisStoreOptions): Promise<Store> {
  const problem = redisUrlProblem(options.url)
  if (problem !== undefined) throw new Error(`invalid store URL ${redactedUrl(options.url)}: ${problem}`)
  if (options.ca !== undefined && !options.url.startsWith('rediss:'))
    throw new Error(`a CA is for a TLS store (rediss://…), not ${redactedUrl(options.url)}`)
  const { createClient, defineScript } = await import('@redis/client')
  const scripts = {
    writeTask: defineScript(taskScripts.writeTask),
    appendEvent: defineScript({
      SCRIPT: appendScript,
      NUMBER_OF_KEYS: 2,
      parseCommand(parser: CommandParser, keys: [string, string], args: string[]) {
        parser.pushKeys(keys)
        parser.push(...args)
      },
      transformReply: (reply: unknown) => reply as string | null,
    }),
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
        [
          options.id ?? '*',
          String(options.maxLength),
          String(Math.max(1, Math.round(options.ttlMs))),
          options.channel === undefined ? '' : prefix + options.channel,
          entry.data,
          entry.end === true ? '1' : '',
        ],
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
    ready: () => commands.isReady && subscriber.isReady,
    onReconnect(listener) {
      reconnected.add(listener)
      return () => reconnected.delete(listener)
    },
    taskStore() {
      tasks ??= redisTaskStore(commands, store, prefix)
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

/** How long closing waits for the answers to commands already sent. */
const closeTimeoutMs = 2000

/**
 * Every key the store writes has an expiry, so a Redis with a memory limit and any policy but
 * noeviction may drop tasks and sessions that are still in use, silently: say so at start.
 */
async function evictionWarning(
  commands: { info(section: string): Promise<string> },
  where: string,
): Promise<string | undefined> {
  let info: string
  try {
    info = await withTimeout(commands.info('memory'), 5000, where)
  } catch {
    return undefined // INFO is renamed away on some hosted Redis: nothing to go by.
  }
  const field = (name: string) => new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim()
  const policy = field('maxmemory_policy')
  if (policy === undefined || policy === 'noeviction' || !(Number(field('maxmemory')) > 0)) return undefined
  return `the store at ${where} evicts keys when its memory is full (maxmemory-policy ${policy}): tasks and sessions in use could vanish; set maxmemory-policy noeviction`
}

function withTimeout<T>(promise: Promise<T>, ms: number, where: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from ${where} within ${ms} ms`)), ms)
  })
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer))
}
