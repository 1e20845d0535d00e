// Token buckets for rate limits shared by every instance of a server (Store.takeTokens): the
// bucket in memory for one process, and the Lua script that keeps it on Redis, where the
// script reads Redis's own clock so that instances with drifting clocks still agree.

import type { CommandParser } from '@redis/client'

/** A bucket's shape: at most `capacity` tokens, refilled at `refillPerSecond`. */
export interface TokenBucket {
  capacity: number
  refillPerSecond: number
}

/** What taking from a bucket gave. */
export interface TokensTaken {
  taken: boolean
  /** Tokens left (rounded down). */
  remaining: number
  /** When refused: how long until enough tokens are there (ms); 0 when taken. */
  retryAfterMs: number
}

// KEYS[1] the bucket (a hash: tokens, at); ARGV: capacity, refill per ms, cost. The bucket
// expires once it would be full again, so idle keys cost nothing.
const takeScript = `
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then tokens = capacity; at = now end
tokens = math.min(capacity, tokens + math.max(0, now - at) * rate)
local taken = 0
local wait = 0
if tokens >= cost then
  tokens = tokens - cost
  taken = 1
else
  wait = math.ceil((cost - tokens) / rate)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(capacity / rate) + 1000)
return { taken, wait, math.floor(tokens) }
`

/** The take script, for `defineScript`. */
export const takeTokensScript = {
  SCRIPT: takeScript,
  NUMBER_OF_KEYS: 1,
  parseCommand(parser: CommandParser, key: string, args: string[]) {
    parser.pushKey(key)
    parser.push(...args)
  },
  transformReply: (reply: unknown) => reply as [number, number, number],
}

/** The script's arguments after its key. */
export function takeArguments(bucket: TokenBucket, cost: number): string[] {
  return [String(bucket.capacity), String(bucket.refillPerSecond / 1000), String(cost)]
}

/** The script's answer as a TokensTaken. */
export function takeOf(reply: readonly number[]): TokensTaken {
  return { taken: reply[0] === 1, retryAfterMs: Number(reply[1] ?? 0), remaining: Number(reply[2] ?? 0) }
}

/** A process's own buckets (the memory store's). */
export function memoryBuckets(now: () => number = Date.now) {
  const buckets = new Map<string, { tokens: number; at: number; expires: number }>()
  let sweepAt = 0
  return (key: string, bucket: TokenBucket, cost: number): TokensTaken => {
    const time = now()
    if (time >= sweepAt) {
      // Full buckets need no record: drop them now and then, so keys cannot pile up.
      for (const [name, state] of buckets) if (state.expires <= time) buckets.delete(name)
      sweepAt = time + 10_000
    }
    const perMs = bucket.refillPerSecond / 1000
    const state = buckets.get(key)
    let tokens = state === undefined ? bucket.capacity : state.tokens
    if (state !== undefined) tokens = Math.min(bucket.capacity, tokens + Math.max(0, time - state.at) * perMs)
    let retryAfterMs = 0
    const taken = tokens >= cost
    if (taken) tokens -= cost
    else retryAfterMs = Math.ceil((cost - tokens) / perMs)
    buckets.set(key, { tokens, at: time, expires: time + Math.ceil(bucket.capacity / perMs) + 1000 })
    return { taken, retryAfterMs, remaining: Math.floor(tokens) }
  }
}
