// A small Redis client for the store rows: enough RESP to send commands (PING, INFO, SCAN,
// UNLINK, ECHO) and to watch MONITOR's stream, with a connect timeout so a missing Redis fails
// the rows at once instead of hanging them. The bench reads Redis from the outside; mcp-kit
// serve talks to it with its own client.

import net from 'node:net'

/** The Redis the store rows use: --redis-url, else $REDIS_URL, else the local default. */
export const defaultRedisUrl = 'redis://127.0.0.1:6379'

/**
 * Parses one RESP value from `buffer` at `offset`.
 * @returns {{ value: unknown, end: number } | undefined}  undefined when more bytes are needed
 */
function parseValue(buffer, offset) {
  const lineEnd = buffer.indexOf('\r\n', offset)
  if (lineEnd === -1) return undefined
  const type = String.fromCharCode(buffer[offset])
  const line = buffer.toString('utf8', offset + 1, lineEnd)
  const next = lineEnd + 2
  switch (type) {
    case '+':
      return { value: line, end: next }
    case '-':
      return { value: new Error(`redis: ${line}`), end: next }
    case ':':
      return { value: Number(line), end: next }
    case '$': {
      const length = Number(line)
      if (length === -1) return { value: null, end: next }
      if (buffer.length < next + length + 2) return undefined
      return { value: buffer.toString('utf8', next, next + length), end: next + length + 2 }
    }
    case '*': {
      const count = Number(line)
      if (count === -1) return { value: null, end: next }
      const items = []
      let position = next
      for (let index = 0; index < count; index++) {
        const item = parseValue(buffer, position)
        if (item === undefined) return undefined
        items.push(item.value)
        position = item.end
      }
      return { value: items, end: position }
    }
    default:
      throw new Error(`redis: unexpected reply type ${JSON.stringify(type)}`)
  }
}

function encode(args) {
  return `*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(String(arg))}\r\n${arg}\r\n`).join('')}`
}

/**
 * Connects to Redis (user and password from the URL, AUTH before anything else).
 * @param {string} url
 * @param {{ timeoutMs?: number }} [settings]
 */
export async function connectRedis(url, { timeoutMs = 2000 } = {}) {
  const parsed = new URL(url)
  if (parsed.protocol !== 'redis:')
    throw new Error(`the bench speaks plain redis:// only, not ${parsed.protocol}`)
  const socket = net.connect(Number(parsed.port || 6379), parsed.hostname || '127.0.0.1')
  socket.setNoDelay(true)
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`no answer from ${parsed.host} within ${timeoutMs} ms`))
    }, timeoutMs)
    socket.once('connect', () => {
      clearTimeout(timer)
      resolve(undefined)
    })
    socket.once('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
  })
  /** @type {{ resolve: (value: unknown) => void, reject: (error: Error) => void }[]} */
  const waiting = []
  /** @type {((line: string) => void) | undefined} */
  let onMonitorLine
  let buffer = Buffer.alloc(0)
  let failure
  socket.on('data', (chunk) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk])
    let offset = 0
    while (offset < buffer.length) {
      const parsed = parseValue(buffer, offset)
      if (parsed === undefined) break
      offset = parsed.end
      const pending = waiting.shift()
      if (pending !== undefined) {
        if (parsed.value instanceof Error) pending.reject(parsed.value)
        else pending.resolve(parsed.value)
      } else if (onMonitorLine !== undefined && typeof parsed.value === 'string') {
        onMonitorLine(parsed.value)
      }
    }
    buffer = buffer.subarray(offset)
  })
  const failAll = (error) => {
    failure ??= error
    for (const pending of waiting.splice(0)) pending.reject(error)
  }
  socket.on('error', failAll)
  socket.on('close', () => failAll(new Error(`the connection to ${parsed.host} closed`)))

  /**
   * Sends one command; rejects if Redis does not answer within `timeoutMs`.
   * @param {...(string | number)} args
   */
  const command = (...args) =>
    new Promise((resolve, reject) => {
      if (failure) return reject(failure)
      // A reply that never came would pair every later reply with the wrong command: give up on
      // the connection instead.
      const timer = setTimeout(() => {
        failAll(new Error(`redis ${args[0]}: no answer within ${timeoutMs} ms`))
        socket.destroy()
      }, timeoutMs)
      waiting.push({
        resolve: (value) => {
          clearTimeout(timer)
          resolve(value)
        },
        reject: (error) => {
          clearTimeout(timer)
          reject(error)
        },
      })
      socket.write(encode(args))
    })

  if (parsed.password) {
    const user = decodeURIComponent(parsed.username)
    const password = decodeURIComponent(parsed.password)
    await command(...(user ? ['AUTH', user, password] : ['AUTH', password]))
  }
  const database = parsed.pathname.slice(1)
  if (database) await command('SELECT', database)

  return {
    command,
    /** INFO <section> as a map of its fields. */
    async info(section) {
      const text = /** @type {string} */ (await command('INFO', section))
      return new Map(
        text
          .split('\r\n')
          .filter((line) => line.includes(':') && !line.startsWith('#'))
          .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1)]),
      )
    },
    /**
     * Turns this connection into a MONITOR stream: `listener` gets every command Redis runs from
     * now on, as MONITOR prints it. The connection is good for nothing else afterwards.
     * @param {(line: string) => void} listener
     */
    async monitor(listener) {
      onMonitorLine = listener
      await command('MONITOR')
    },
    /** Deletes every key that starts with `prefix` (SCAN, then UNLINK); resolves to how many. */
    async deletePrefix(prefix) {
      let cursor = '0'
      let deleted = 0
      do {
        const [nextCursor, keys] = /** @type {[string, string[]]} */ (
          await command('SCAN', cursor, 'MATCH', `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`, 'COUNT', 1000)
        )
        cursor = nextCursor
        if (keys.length > 0) deleted += /** @type {number} */ (await command('UNLINK', ...keys))
      } while (cursor !== '0')
      return deleted
    },
    close() {
      socket.destroy()
    },
  }
}

/** @typedef {Awaited<ReturnType<typeof connectRedis>>} RedisConnection */
