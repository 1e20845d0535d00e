// The bench's own Redis connections (the store rows read Redis from the outside: PING, INFO,
// SCARD, MONITOR, and deleting a prefix afterwards), on @redis/client like mcp-kit itself. A
// missing Redis fails at once instead of being retried.

import { createClient } from '@redis/client'

/** The Redis the store rows use: --redis-url, else $REDIS_URL, else the local default. */
export const defaultRedisUrl = 'redis://127.0.0.1:6379'

/**
 * Connects to Redis (user, password and database from the URL).
 * @param {string} url
 * @param {{ timeoutMs?: number }} [settings]
 */
export async function connectRedis(url, { timeoutMs = 2000 } = {}) {
  const client = createClient({
    url,
    // Never reconnect: a connection that dropped fails the row that uses it.
    socket: { connectTimeout: timeoutMs, reconnectStrategy: false },
  })
  // Without a listener an error event would end the process; the failing command reports it.
  client.on('error', () => {})
  await client.connect()
  return client
}

/** @typedef {Awaited<ReturnType<typeof connectRedis>>} RedisClient */

/**
 * Redis's used_memory (INFO memory), in bytes.
 * @param {RedisClient} client
 */
export async function usedMemory(client) {
  const match = (await client.info('memory')).match(/^used_memory:(\d+)/m)
  if (match === null) throw new Error('INFO memory has no used_memory field')
  return Number(match[1])
}

/**
 * Deletes every key that starts with `prefix`; resolves to how many.
 * @param {string} url
 * @param {string} prefix
 */
export async function deletePrefix(url, prefix) {
  const client = await connectRedis(url)
  try {
    let deleted = 0
    const pattern = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`
    for await (const keys of client.scanIterator({ MATCH: pattern, COUNT: 1000 })) {
      if (keys.length > 0) deleted += await client.unlink(keys)
    }
    return deleted
  } finally {
    client.destroy()
  }
}
