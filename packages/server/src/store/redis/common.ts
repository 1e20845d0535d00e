// What the Redis store and the Redis Cluster store share: the event-log append script, the
// check that Redis will not evict what the store keeps, and a time limit on a promise.

import type { CommandParser } from '@redis/client'

// KEYS[1] the log, KEYS[2] the `once` key ('' or the log itself = none); ARGV: id ('*' = made by Redis), maxLength,
// ttlMs, channel ('' = none), data, end ('1' or ''), the publishing command (PUBLISH, or SPUBLISH
// on a cluster, where the channel shares the log's slot). One round trip, atomic: the id order is
// the publication order. An explicit id already in the log is the retry of an append that landed
// (its answer was lost with a failed connection): it is answered, not appended again.
const appendScript = `
if KEYS[2] ~= '' and KEYS[2] ~= KEYS[1] then
  if not redis.call('SET', KEYS[2], '1', 'NX', 'PX', ARGV[3]) then return false end
end
if ARGV[1] ~= '*' and #redis.call('XRANGE', KEYS[1], ARGV[1], ARGV[1]) > 0 then return ARGV[1] end
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], ARGV[1], 'data', ARGV[5], 'end', ARGV[6])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
if ARGV[4] ~= '' then
  redis.call(ARGV[7], ARGV[4], cjson.encode({ id = id, data = ARGV[5], ['end'] = ARGV[6] == '1' }))
end
return id
`

/** The append script, for `defineScript` (the client sends EVALSHA, the text only on NOSCRIPT). */
export const appendEventScript = {
  SCRIPT: appendScript,
  NUMBER_OF_KEYS: 2,
  parseCommand(parser: CommandParser, keys: [string, string], args: string[]) {
    parser.pushKeys(keys)
    parser.push(...args)
  },
  transformReply: (reply: unknown) => reply as string | null,
}

/** The append script's arguments after its keys. */
export function appendArguments(
  entry: { data: string; end?: boolean },
  options: { id?: string; maxLength: number; ttlMs: number },
  channel: string,
  publish: 'PUBLISH' | 'SPUBLISH',
): string[] {
  return [
    options.id ?? '*',
    String(options.maxLength),
    String(Math.max(1, Math.round(options.ttlMs))),
    channel,
    entry.data,
    entry.end === true ? '1' : '',
    publish,
  ]
}

/** How long closing waits for the answers to commands already sent. */
export const closeTimeoutMs = 2000

/**
 * Every key the store writes has an expiry, so a Redis with a memory limit and any policy but
 * noeviction may drop tasks and sessions that are still in use, silently: say so at start.
 */
export async function evictionWarning(
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

export function withTimeout<T>(promise: Promise<T>, ms: number, where: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from ${where} within ${ms} ms`)), ms)
  })
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer))
}
