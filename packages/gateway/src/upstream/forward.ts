// Relaying one call from a gateway's client to an upstream: cancellation (the client's signal
// becomes the upstream call's), progress and log messages back to the client, the upstream's
// questions (elicitation, sampling, roots) to the client and the answers back, errors with the
// upstream's JSON-RPC code (error text and progress messages cleaned as descriptions are), and
// the trace fields (which upstream, how long it took). The call carries its own question handler
// and log sink to the upstream session, so whatever the upstream ties to the call reaches this
// client and no other (the rest: callers.ts, by `callerKey`).
//
// Questions across eras: a 2025 client is asked at once (a server-to-client request). A 2026
// client is asked by ending the round with `input_required`; the upstream call meanwhile stays
// parked in this process, waiting for its answer, under a random handle kept in the round's
// signed `requestState` (HandlerContext.roundState). Only the retry that carries that
// requestState, from the same principal, picks the call up (and the next round gets a new
// handle), so the upstream's tool runs once and no other client can take the call over by
// sending the same one. A retry that reaches another instance, or comes after the parking time,
// starts the call anew.

import { randomBytes } from 'node:crypto'
import { type CallOptions, ClientError, type InputHandler, type Session } from '@mcp-kit/client'
import { isModernVersion } from '@mcp-kit/core'
import type { HandlerContext, InputRequest, TraceContext } from '@mcp-kit/server'
import { principalOf, RpcFailure } from '@mcp-kit/server'
import type { Caller, Upstream } from './upstream.js'
import { cleanText } from './upstream-text.js'

/** How long a parked upstream call waits for its client's retry. */
export const parkingMs = 5 * 60_000

type Question = { request: InputRequest; answer(value: unknown): void; fail(error: unknown): void }

/** An upstream call waiting for answers a 2026 client gives on its retries. */
class ParkedCall {
  /** Whose call it is, and what it calls: a retry must match all of it. */
  readonly owner: string
  result: Promise<unknown> | undefined
  readonly controller = new AbortController()
  asked = 0
  #pending: Question | undefined
  #wake: (() => void) | undefined
  #expiry: NodeJS.Timeout | undefined

  constructor(owner: string) {
    this.owner = owner
  }

  /** The upstream asks: park the question until the client's next round answers it. */
  question(request: InputRequest): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.asked += 1
      this.#pending = { request, answer: resolve, fail: reject }
      this.#wake?.()
    })
  }

  /** The unanswered question, or one that arrives before the call ends. */
  next(): Promise<Question | undefined> {
    if (this.#pending !== undefined) return Promise.resolve(this.#pending)
    return new Promise((resolve) => {
      this.#wake = () => {
        this.#wake = undefined
        resolve(this.#pending)
      }
      void this.result?.then(
        () => resolve(undefined),
        () => resolve(undefined),
      )
    })
  }

  answered(): void {
    this.#pending = undefined
  }

  park(expire: () => void): void {
    clearTimeout(this.#expiry)
    this.#expiry = setTimeout(expire, parkingMs)
    this.#expiry.unref()
  }

  unpark(): void {
    clearTimeout(this.#expiry)
  }
}

/** Parked calls by their handle (random, one per round). */
const parked = new Map<string, ParkedCall>()

/** The principal and the call, which a parked call's retry must match besides its handle. */
function ownerOf(upstream: Upstream, what: string, args: unknown, context: HandlerContext): string {
  return JSON.stringify([principalOf(context.authInfo), upstream.name, what, args])
}

/** The call the retry's handle names, taken out of the parking, when it is this caller's. */
function takeParked(handle: string | undefined, owner: string): ParkedCall | undefined {
  if (handle === undefined) return undefined
  const call = parked.get(handle)
  if (call === undefined || call.owner !== owner) return undefined
  parked.delete(handle)
  call.unpark()
  return call
}

function roundOfQuestion(method: string, params: unknown): InputRequest {
  return { method, params } as InputRequest
}

/** Answers the upstream's questions by asking the client directly (2025 clients, embedded calls). */
function directInput(context: HandlerContext): InputHandler {
  return {
    elicit: (request) => context.elicit(request as never),
    sample: (request) => context.sample(request as never) as never,
    // Whether the client takes tools is its own declaration's to say (context.sample checks it).
    samplingTools: true,
  }
}

/** Parks the upstream's questions for the client's next round (2026 clients). */
function parkedInput(call: ParkedCall): InputHandler {
  return {
    elicit: (request) => call.question(roundOfQuestion('elicitation/create', request)) as never,
    sample: (request) => call.question(roundOfQuestion('sampling/createMessage', request)) as never,
    samplingTools: true,
  }
}

/**
 * Who a call is for, in routing what an upstream sends (docs/architecture.md "Isolation"): its
 * principal, and the client's session when it has one: a 2025-11-25 client's `Mcp-Session-Id`,
 * or its stdio connection. So two clients of one static token are two callers. A 2026-07-28
 * client has no session; its principal is all that tells its calls apart from others'.
 */
export function callerKey(context: HandlerContext): { key: string; session: boolean } {
  const principal = principalOf(context.authInfo)
  if (isModernVersion(context.protocolVersion ?? '')) return { key: principal, session: false }
  return { key: `${principal} session:${context.sessionId ?? 'stdio'}`, session: true }
}

function callerFor(context: HandlerContext, input: InputHandler): Caller {
  return {
    ...callerKey(context),
    input,
    log: (level, data, logger) => {
      void context.log(level as never, data, logger).catch(() => {})
    },
  }
}

/**
 * What a client sees when the upstream failed: the upstream's JSON-RPC error (its code and data as
 * they are), or a message naming it; either way the text without what a terminal would obey or a
 * reader would not see (upstream-text.ts), whatever the client is.
 */
export function relayError(upstream: Upstream, error: unknown): Error {
  if (ClientError.isInstance(error)) {
    const code = error.details?.rpcCode
    const message = cleanText(error.message)
    if (typeof code === 'number') return new RpcFailure(code, message, { data: error.details?.rpcData })
    return new Error(`upstream '${upstream.name}': ${message}`)
  }
  return error instanceof Error ? error : new Error(String(error))
}

/**
 * Runs `work` against the upstream on behalf of the client whose context this is, relaying
 * progress, logs, cancellation and questions, and annotating the trace.
 */
export async function relay<T>(
  upstream: Upstream,
  what: string,
  args: unknown,
  context: HandlerContext,
  work: (session: Session, options: RelayOptions) => Promise<T>,
  trace: TraceContext | undefined = context.traceContext,
): Promise<T> {
  const started = performance.now()
  // The caller's trace goes on to the upstream (in `_meta`, and headers over HTTP).
  const meta = trace === undefined ? undefined : traceMeta(trace)
  const onProgress: ProgressRelay = (progress) => {
    const message = progress.message === undefined ? undefined : cleanText(progress.message)
    void context.progress(progress.progress, progress.total, message).catch(() => {})
  }
  try {
    if (!isModernVersion(context.protocolVersion ?? '')) {
      const caller = callerFor(context, directInput(context))
      return await upstream.use(caller, (session) =>
        work(session, { signal: context.signal, onProgress, meta, ...ownTraffic(caller) }),
      )
    }
    return (await parkedRelay(upstream, what, args, context, (session, signal, caller) =>
      work(session, { signal, onProgress, meta, ...ownTraffic(caller) }),
    )) as T
  } catch (error) {
    if (isRoundEnd(error)) throw error
    throw relayError(upstream, error)
  } finally {
    context.annotateTrace({ upstream: upstream.name, upstream_ms: performance.now() - started })
  }
}

type ProgressRelay = (progress: { progress: number; total?: number; message?: string }) => void

/** What a relayed call passes to the client session (Session.callTool and the like). */
type RelayOptions = Required<Pick<CallOptions, 'signal' | 'onProgress' | 'input' | 'onLog'>> &
  Pick<CallOptions, 'meta'>

function traceMeta(trace: TraceContext): Record<string, string> {
  return trace.tracestate === undefined
    ? { traceparent: trace.traceparent }
    : { traceparent: trace.traceparent, tracestate: trace.tracestate }
}

/** The call's own handlers: the upstream's questions and logs about this call go to its caller. */
function ownTraffic(caller: Caller): Pick<RelayOptions, 'input' | 'onLog'> {
  return {
    input: caller.input,
    onLog: ({ level, data, logger }) => caller.log(level, data, logger),
  }
}

/** The signal a 2026 handler throws to end its round with input_required (not a failure). */
function isRoundEnd(error: unknown): boolean {
  return error instanceof Error && error.name === 'InputRequiredSignal'
}

async function parkedRelay(
  upstream: Upstream,
  what: string,
  args: unknown,
  context: HandlerContext,
  work: (session: Session, signal: AbortSignal, caller: Caller) => Promise<unknown>,
): Promise<unknown> {
  const owner = ownerOf(upstream, what, args, context)
  let call = takeParked(context.roundState, owner)
  if (call === undefined) {
    const fresh = new ParkedCall(owner)
    call = fresh
    const caller = callerFor(context, parkedInput(fresh))
    fresh.result = upstream.use(caller, (session) => work(session, fresh.controller.signal, caller))
    fresh.result.catch(() => {})
  }
  const cancel = () => call.controller.abort(context.signal.reason)
  context.signal.addEventListener('abort', cancel, { once: true })
  try {
    for (;;) {
      const question = await call.next()
      if (question === undefined) return await call.result
      let answer: Record<string, unknown>
      try {
        answer = await context.ask({ [`upstream-${call.asked}`]: question.request })
      } catch (error) {
        if (!isRoundEnd(error)) {
          // The client cannot be asked (it did not declare the capability, the task ended…):
          // the upstream gets the error, and the next question is a new one.
          call.answered()
          question.fail(error)
          continue
        }
        // The client answers on its retry: keep the upstream call waiting until then, under a
        // new handle that only this round's requestState carries.
        const handle = randomBytes(24).toString('base64url')
        context.roundState = handle
        parked.set(handle, call)
        call.park(() => {
          if (parked.get(handle) !== call) return
          parked.delete(handle)
          call.controller.abort(new Error('the client did not come back with an answer'))
          question.fail(new ClientError('cancelled', 'the client did not answer in time'))
        })
        throw error
      }
      call.answered()
      question.answer(answer[`upstream-${call.asked}`])
    }
  } finally {
    context.signal.removeEventListener('abort', cancel)
  }
}
