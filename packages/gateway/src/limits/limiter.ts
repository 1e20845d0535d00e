// Rate limits (token buckets) and concurrency caps for a gateway's calls. With a shared store
// (Redis) a bucket lives there and every instance takes from it, so a limit holds across
// instances; without, each process keeps its own in memory. A refused call is answered with the
// MCP error of call-controls.ts (`rateLimitedCode`), carrying when to retry.

import { createHash } from 'node:crypto'
import { type AuthInfo, principalOf, type Store, type TokenBucket, type TokensTaken } from '@mcp-kit/server'
import { compileFilter } from '../naming.js'
import { compilePrincipal, type PrincipalMatcher } from '../policy/principal.js'
import type { LimitSpec, RateLimitSpec } from './limits-types.js'

/** A call the limits look at. */
export interface LimitedCall {
  upstream: string
  /** The name clients see (a resource's URI or template). */
  name: string
  authInfo: AuthInfo | undefined
}

/** Why a call was refused, and when it may come again. */
export interface LimitRefusal {
  /** Which limit (its index in `limits`) and what it says, for messages and the audit log. */
  limit: number
  description: string
  retryAfterMs: number
}

export interface Limiter {
  /** Takes what the call needs from every limit that applies; a refusal when one has none left. */
  admit(call: LimitedCall): Promise<LimitRefusal | undefined> | undefined
  /** Holds a concurrency slot of `upstream` until the returned function is called, or refuses. */
  enter(upstream: string): (() => void) | LimitRefusal
}

interface CompiledRate {
  index: number
  id: string
  spec: RateLimitSpec
  applies: (call: LimitedCall) => boolean
  key: (call: LimitedCall) => string
  description: string
}

function describeRate(spec: RateLimitSpec): string {
  const per = spec.perSeconds === 1 ? 'second' : spec.perSeconds === 60 ? 'minute' : `${spec.perSeconds} s`
  const scope = spec.tools === undefined ? '' : ` on ${spec.tools.join(', ')}`
  return `${spec.rate} calls per ${per} for each ${spec.by.replace('+', ' and ')}${scope}`
}

function keyOf(spec: RateLimitSpec): (call: LimitedCall) => string {
  switch (spec.by) {
    case 'principal':
      return (call) => principalOf(call.authInfo)
    case 'tool':
      return (call) => `${call.upstream}\u0000${call.name}`
    case 'upstream':
      return (call) => call.upstream
    case 'principal+tool':
      return (call) => `${principalOf(call.authInfo)}\u0000${call.upstream}\u0000${call.name}`
    case 'principal+upstream':
      return (call) => `${principalOf(call.authInfo)}\u0000${call.upstream}`
  }
}

function compileRate(spec: RateLimitSpec, index: number): CompiledRate {
  const upstream = spec.upstream === undefined ? undefined : compileFilter(spec.upstream)
  const tools = spec.tools === undefined ? undefined : compileFilter(spec.tools)
  const who: PrincipalMatcher | undefined = spec.for === undefined ? undefined : compilePrincipal(spec.for)
  const key = keyOf(spec)
  // The same limit after a reload keeps its buckets: they are named by what the limit says.
  const id = createHash('sha256').update(JSON.stringify(spec)).digest('base64url').slice(0, 12)
  return {
    index,
    id,
    spec,
    applies: (call) =>
      (upstream === undefined || upstream(call.upstream)) &&
      (tools === undefined || tools(call.name)) &&
      (who === undefined || who(call.authInfo)),
    key: (call) => createHash('sha1').update(key(call)).digest('base64url'),
    description: describeRate(spec),
  }
}

/** A process's own token buckets, on `now` (ms). */
export function memoryBuckets(now: () => number = Date.now) {
  const buckets = new Map<string, { tokens: number; at: number; expires: number }>()
  let sweepAt = 0
  return async (key: string, bucket: TokenBucket, cost = 1): Promise<TokensTaken> => {
    const time = now()
    if (time >= sweepAt) {
      // A full bucket needs no record: drop those now and then, so keys cannot pile up.
      for (const [name, state] of buckets) if (state.expires <= time) buckets.delete(name)
      sweepAt = time + 10_000
    }
    const perMs = bucket.refillPerSecond / 1000
    const state = buckets.get(key)
    let tokens = bucket.capacity
    if (state !== undefined)
      tokens = Math.min(bucket.capacity, state.tokens + Math.max(0, time - state.at) * perMs)
    const taken = tokens >= cost
    if (taken) tokens -= cost
    buckets.set(key, { tokens, at: time, expires: time + Math.ceil(bucket.capacity / perMs) })
    return {
      taken,
      remaining: Math.floor(tokens),
      retryAfterMs: taken ? 0 : Math.ceil((cost - tokens) / perMs),
    }
  }
}

/** How a bucket is taken from (Store.takeTokens, or memoryBuckets). */
export type TakeTokens = (key: string, bucket: TokenBucket, cost?: number) => Promise<TokensTaken>

/**
 * The limits, their buckets in `store` when it shares them (Redis), else in `memory` (kept by the
 * caller across reloads, so a limit that stays keeps its counts).
 */
export function createLimiter(
  limits: readonly LimitSpec[],
  store: Store | undefined,
  memory: TakeTokens = memoryBuckets(),
): Limiter {
  const rates = limits.flatMap((spec, index) => (spec.kind === 'rate' ? [compileRate(spec, index)] : []))
  const caps = limits.flatMap((spec, index) =>
    spec.kind === 'concurrency'
      ? [{ index, spec, applies: spec.upstream === undefined ? () => true : compileFilter(spec.upstream) }]
      : [],
  )
  const shared = store?.kind === 'memory' ? undefined : store?.takeTokens?.bind(store)
  const takeTokens = shared ?? memory
  const inFlight = new Map<string, number>()
  const capsOf = new Map<string, typeof caps>()

  async function take(call: LimitedCall, applicable: CompiledRate[]): Promise<LimitRefusal | undefined> {
    const taken = await Promise.all(
      applicable.map((rate) =>
        takeTokens(`limit:${rate.id}:${rate.key(call)}`, {
          capacity: rate.spec.burst,
          refillPerSecond: rate.spec.rate / rate.spec.perSeconds,
        }).catch((): TokensTaken => {
          // A shared store that cannot be reached does not stop the traffic: the limit lets the
          // call through (fails open) rather than refuse every call while Redis is away.
          return { taken: true, remaining: 0, retryAfterMs: 0 }
        }),
      ),
    )
    const refused = taken.findIndex((answer: TokensTaken) => !answer.taken)
    if (refused === -1) return undefined
    const rate = applicable[refused] as CompiledRate
    return {
      limit: rate.index,
      description: rate.description,
      retryAfterMs: Math.max(1, (taken[refused] as TokensTaken).retryAfterMs),
    }
  }

  return {
    admit(call) {
      if (rates.length === 0) return undefined
      const applicable = rates.filter((rate) => rate.applies(call))
      return applicable.length === 0 ? undefined : take(call, applicable)
    },
    enter(upstream) {
      if (caps.length === 0) return noop
      let mine = capsOf.get(upstream)
      if (mine === undefined) {
        mine = caps.filter((cap) => cap.applies(upstream))
        capsOf.set(upstream, mine)
      }
      if (mine.length === 0) return noop
      const count = inFlight.get(upstream) ?? 0
      const full = mine.find((cap) => count >= cap.spec.concurrency)
      if (full !== undefined) {
        return {
          limit: full.index,
          description: `${full.spec.concurrency} calls at once to upstream '${upstream}'`,
          retryAfterMs: 100,
        }
      }
      inFlight.set(upstream, count + 1)
      let left = false
      return () => {
        if (left) return
        left = true
        inFlight.set(upstream, (inFlight.get(upstream) ?? 1) - 1)
      }
    },
  }
}

const noop = () => {}
