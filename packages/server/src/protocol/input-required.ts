// Multi Round-Trip Requests (MCP 2026-07-28, SEP-2322) for registry handlers. A handler asks a
// question through its context; if the answer is among the retry's `inputResponses` or the
// answers carried in `requestState`, it gets it at once; otherwise the round ends with an
// InputRequiredSignal that the edge turns into an `input_required` result, listing every question
// of that ask and a `requestState` holding the answers so far (and the handler's `roundState`,
// a string it keeps for its retry). requestState is HMAC-signed
// (the SDK's codec), expires, and is bound to the request it belongs to (method, name or URI,
// arguments, and the authenticated principal), so a client cannot tamper with it or replay it
// on another request.

import { createHash, randomBytes } from 'node:crypto'
import { isRecord } from '@mcp-kit/core'
import type { ClientCapabilities, InputRequest } from '../context.js'
import { rpcCodes, ServerError } from '../errors.js'
import { serverSdk } from '../sdk.js'
import { type InputChannel, missingCapabilities } from './request-context.js'
import { invalidParams } from './rpc.js'

/** Thrown by the 2026-07-28 input channel: this round needs answers first. Not an error. */
export class InputRequiredSignal extends Error {
  override readonly name = 'InputRequiredSignal'
  readonly requests: Record<string, InputRequest>
  constructor(requests: Record<string, InputRequest>) {
    super('input required')
    this.requests = requests
  }
}

export function isInputRequired(error: unknown): error is InputRequiredSignal {
  return error instanceof InputRequiredSignal
}

/** The client capabilities a question needs (spec 2026-07-28 mrtr: never ask what was not declared). */
export function capabilitiesFor(request: InputRequest): ClientCapabilities {
  switch (request.method) {
    case 'elicitation/create':
      return request.params.mode === 'url' ? { elicitation: { url: {} } } : { elicitation: { form: {} } }
    case 'sampling/createMessage':
      return request.params.tools !== undefined || request.params.toolChoice !== undefined
        ? { sampling: { tools: {} } }
        : { sampling: {} }
    case 'roots/list':
      return { roots: {} }
  }
}

export function missingCapabilityError(required: ClientCapabilities): ServerError {
  const names = Object.keys(required).join(', ')
  return new ServerError('missing_capability', `the client did not declare the ${names} capability`, {
    details: { requiredCapabilities: required, rpcCode: rpcCodes.missingClientCapability },
  })
}

/** The state a round hands to the next: answers so far, bound to the request they belong to. */
interface StatePayload {
  a: Record<string, unknown>
  b: string
  /** The handler's roundState, when it set one. */
  s?: string
}

export interface StateCodec {
  mint(payload: StatePayload): Promise<string>
  verify(state: string): Promise<StatePayload>
}

/**
 * A requestState codec over the SDK's HMAC codec (loaded on first use). Every instance that may
 * receive a retry must share `key` (the store supplies a shared one when there are several).
 */
export function createStateCodec(key: Uint8Array | string | undefined, ttlSeconds = 600): StateCodec {
  const secret = key ?? randomBytes(32)
  let codec: ReturnType<ReturnType<typeof serverSdk>['createRequestStateCodec']> | undefined
  const load = () => {
    codec ??= serverSdk().createRequestStateCodec({ key: secret, ttlSeconds })
    return codec
  }
  return {
    async mint(payload) {
      return load().mint(payload)
    },
    async verify(state) {
      const payload = await load().verify(state, {} as never)
      if (
        !isRecord(payload) ||
        !isRecord(payload.a) ||
        typeof payload.b !== 'string' ||
        (payload.s !== undefined && typeof payload.s !== 'string')
      )
        throw new Error('malformed')
      return payload as unknown as StatePayload
    },
  }
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`
  if (isRecord(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson(value[key])}`)
      .join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/** What a requestState is bound to: this request's identity and its caller. */
export function stateBinding(
  method: string,
  target: string,
  args: unknown,
  principal: string | undefined,
): string {
  return createHash('sha256')
    .update(`${method}\0${target}\0${principal ?? ''}\0${stableJson(args ?? {})}`)
    .digest('base64url')
}

/** True when `answer` has the shape of an answer to `method` (checked before a handler sees it). */
export function validAnswer(method: InputRequest['method'], answer: unknown): boolean {
  return isRecord(answer) && answerShape[method](answer)
}

const answerShape: Record<InputRequest['method'], (answer: Record<string, unknown>) => boolean> = {
  'elicitation/create': (answer) =>
    answer.action === 'accept' || answer.action === 'decline' || answer.action === 'cancel',
  'sampling/createMessage': (answer) =>
    typeof answer.role === 'string' && (isRecord(answer.content) || Array.isArray(answer.content)),
  'roots/list': (answer) => Array.isArray(answer.roots),
}

/** The input channel of one 2026-07-28 request round. */
export class ModernInputChannel implements InputChannel {
  readonly #answers: Record<string, unknown>
  readonly #capabilities: ClientCapabilities | undefined
  readonly #used: Record<string, unknown> = {}
  /** What the handler keeps for its retry: the previous round's on arrival, carried to the next. */
  roundState: string | undefined

  constructor(
    answers: Record<string, unknown>,
    capabilities: ClientCapabilities | undefined,
    roundState?: string,
  ) {
    this.#answers = answers
    this.#capabilities = capabilities
    this.roundState = roundState
  }

  /** The answers the handler used in this round (carried into the next round's requestState). */
  get usedAnswers(): Record<string, unknown> {
    return this.#used
  }

  async ask(requests: Record<string, InputRequest>): Promise<Record<string, unknown>> {
    const answered: Record<string, unknown> = {}
    const missing: Record<string, InputRequest> = {}
    for (const [key, request] of Object.entries(requests)) {
      const undeclared = missingCapabilities(capabilitiesFor(request), this.#capabilities)
      if (undeclared !== undefined) throw missingCapabilityError(undeclared)
      const answer = this.#answers[key]
      if (answer === undefined) {
        missing[key] = request
        continue
      }
      if (!validAnswer(request.method, answer)) {
        throw invalidParams(`inputResponses['${key}'] is not a valid answer to ${request.method}`)
      }
      answered[key] = answer
      this.#used[key] = answer
    }
    if (Object.keys(missing).length > 0) throw new InputRequiredSignal(missing)
    return answered
  }
}

/** Reads `inputResponses` and `requestState` of a retry into the answers known so far and the handler's roundState. */
export async function answersOf(
  params: Record<string, unknown>,
  binding: string,
  codec: StateCodec,
): Promise<{ answers: Record<string, unknown>; roundState?: string }> {
  const responses = params.inputResponses
  if (responses !== undefined && !isRecord(responses))
    throw invalidParams("'inputResponses' must be an object")
  const state = params.requestState
  let carried: Record<string, unknown> = {}
  let roundState: string | undefined
  if (state !== undefined) {
    if (typeof state !== 'string') throw invalidParams("'requestState' must be a string")
    let payload: StatePayload
    try {
      payload = await codec.verify(state)
    } catch {
      throw invalidParams('requestState failed verification (tampered, expired or from another server)')
    }
    if (payload.b !== binding) throw invalidParams('requestState belongs to a different request')
    carried = payload.a
    roundState = payload.s
  }
  return { answers: responses === undefined ? { ...carried } : { ...carried, ...responses }, roundState }
}

/** The `input_required` result of a round that ended with `signal`. */
export async function inputRequiredResult(
  signal: InputRequiredSignal,
  channel: ModernInputChannel,
  binding: string,
  codec: StateCodec,
): Promise<Record<string, unknown>> {
  const inputRequests: Record<string, unknown> = {}
  for (const [key, request] of Object.entries(signal.requests)) {
    inputRequests[key] = request.params === undefined ? { method: request.method } : request
  }
  // Only answers the handler used travel on: unrecognized extra keys are dropped.
  return {
    resultType: 'input_required',
    inputRequests,
    requestState: await codec.mint({
      a: channel.usedAnswers,
      b: binding,
      ...(channel.roundState === undefined ? {} : { s: channel.roundState }),
    }),
  }
}
