// What the client can answer when a server asks (elicitation, sampling, roots): the application gives the
// answers; the client declares exactly the capabilities its handler has, and routes both eras' questions.

import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateMessageResultWithTools,
  ElicitRequestParams,
  ElicitResult,
  Root,
} from '@modelcontextprotocol/client'
import { ClientError } from '../errors.js'

/** What a server asks the client's model (`sampling/createMessage` params), in both eras. */
export type SamplingRequest = CreateMessageRequestParams
/** The model's answer; with `tools` in the request its content may hold `tool_use` blocks. */
export type SamplingResult = CreateMessageResult | CreateMessageResultWithTools

/** Where a question comes from, for the handler's prompts and messages. */
export interface InputContext {
  /** The request that asked (e.g. `tools/call 'delete_note'`), or undefined for a 2025 request outside one. */
  during: string | undefined
  signal: AbortSignal
}

export interface InputHandler {
  /** Answers `elicitation/create`; without it elicitation is not declared. */
  elicit?: ((request: ElicitRequestParams, context: InputContext) => Promise<ElicitResult>) | undefined
  /** Which elicitation modes `elicit` handles (default both). */
  elicitationModes?: ReadonlyArray<'form' | 'url'> | undefined
  /** Answers `sampling/createMessage`; without it sampling is not declared. */
  sample?: ((request: SamplingRequest, context: InputContext) => Promise<SamplingResult>) | undefined
  /**
   * Whether `sample` handles `tools` and `toolChoice` (answering with `tool_use` content): declares
   * `sampling.tools`. Without it a sampling request with tools is refused before `sample` sees it.
   */
  samplingTools?: boolean | undefined
  /** The client's roots; without it roots are not declared. */
  roots?: ((context: InputContext) => Promise<Root[]>) | undefined
}

/** The capabilities a handler lets the client declare. */
export function capabilitiesOf(handler: InputHandler | undefined): ClientCapabilities {
  const capabilities: Record<string, unknown> = {}
  if (handler?.elicit) {
    const modes = handler.elicitationModes ?? ['form', 'url']
    capabilities.elicitation = Object.fromEntries(modes.map((mode) => [mode, {}]))
  }
  if (handler?.sample) capabilities.sampling = handler.samplingTools === true ? { tools: {} } : {}
  if (handler?.roots) capabilities.roots = {}
  return capabilities as ClientCapabilities
}

/** A call's own handler (CallOptions.input), with the session's for the questions it does not answer. */
export function callInput(
  own: InputHandler | undefined,
  session: InputHandler | undefined,
): InputHandler | undefined {
  if (own === undefined || session === undefined) return own ?? session
  const elicit = own.elicit?.bind(own) ?? session.elicit?.bind(session)
  const sample = own.sample?.bind(own) ?? session.sample?.bind(session)
  const roots = own.roots?.bind(own) ?? session.roots?.bind(session)
  const modes = own.elicit ? own.elicitationModes : session.elicitationModes
  const samplingTools = own.sample ? own.samplingTools : session.samplingTools
  return {
    ...(elicit ? { elicit } : {}),
    ...(modes ? { elicitationModes: modes } : {}),
    ...(sample ? { sample } : {}),
    ...(sample && samplingTools ? { samplingTools } : {}),
    ...(roots ? { roots } : {}),
  }
}

const kinds: Record<string, string> = {
  'elicitation/create': 'input from the user (elicitation)',
  'sampling/createMessage': 'a model completion (sampling)',
  'roots/list': "the client's roots",
}

/** The words a refusal uses for the missing answerer: the CLI says its flags instead. */
export const noSampler = '(answer sampling with input.sample)'

/**
 * A sampling answer as the client sends it: an object with a role, a model name and content
 * (one block, or a list where the request offered tools). Strict in what it sends: anything else
 * is the answerer's mistake, said here rather than by the server.
 */
function checkedAnswer(answer: SamplingResult, params: Record<string, unknown>): Record<string, unknown> {
  const value = answer as unknown as Record<string, unknown>
  const content = value?.content
  const withTools = params.tools !== undefined
  const problem =
    typeof value !== 'object' || value === null
      ? 'it is not an object'
      : value.role !== 'assistant' && value.role !== 'user'
        ? "its role is not 'assistant' or 'user'"
        : typeof value.model !== 'string'
          ? 'it names no model'
          : Array.isArray(content)
            ? withTools
              ? undefined
              : 'its content is a list, which only a request with tools allows'
            : typeof content !== 'object' || content === null
              ? 'it has no content'
              : undefined
  if (problem !== undefined)
    throw new ClientError('protocol_error', `the sampling answer cannot be sent: ${problem}`)
  return value
}

/**
 * Answers one question with the handler. A question the handler cannot answer fails with
 * ClientError `input_required`, saying what the server wanted; one it has not answered within
 * `timeoutMs` (0: no limit) fails with ClientError `timeout` (`details.limit` 'input'), and the
 * handler's signal aborts with that error, so a prompt still open can close.
 */
export async function answerInput(
  handler: InputHandler | undefined,
  request: { method: string; params?: Record<string, unknown> },
  context: InputContext,
  timeoutMs = 0,
): Promise<Record<string, unknown>> {
  if (!(timeoutMs > 0) || !Number.isFinite(timeoutMs)) return answerNow(handler, request, context)
  const limit = new AbortController()
  const expired = new Promise<never>((_resolve, reject) => {
    limit.signal.addEventListener('abort', () => reject(limit.signal.reason), { once: true })
  })
  const timer = setTimeout(() => {
    limit.abort(
      new ClientError(
        'timeout',
        `input question timed out after ${Math.round(timeoutMs / 100) / 10} s: the server asked for ${kinds[request.method] ?? request.method}${context.during ? ` during ${context.during}` : ''} and no answer came`,
        { details: { limit: 'input', timeoutMs, method: request.method } },
      ),
    )
  }, timeoutMs)
  try {
    const signal = AbortSignal.any([context.signal, limit.signal])
    return await Promise.race([answerNow(handler, request, { ...context, signal }), expired])
  } finally {
    clearTimeout(timer)
  }
}

/** True for the error of a question that was not answered in time. */
export function isInputTimeout(error: unknown): error is ClientError {
  return ClientError.isInstance(error) && error.code === 'timeout' && error.details?.limit === 'input'
}

async function answerNow(
  handler: InputHandler | undefined,
  request: { method: string; params?: Record<string, unknown> },
  context: InputContext,
): Promise<Record<string, unknown>> {
  const params = request.params ?? {}
  const refuse = (why: string) =>
    new ClientError(
      'input_required',
      `the server asked for ${kinds[request.method] ?? request.method}${context.during ? ` during ${context.during}` : ''}; ${why}`,
      {
        details: { method: request.method },
      },
    )
  switch (request.method) {
    case 'elicitation/create':
      if (!handler?.elicit) throw refuse('this client does not answer elicitation')
      return (await handler.elicit(params as ElicitRequestParams, context)) as unknown as Record<
        string,
        unknown
      >
    case 'sampling/createMessage':
      if (!handler?.sample) throw refuse(`this client has no model to answer with ${noSampler}`)
      if ((params.tools !== undefined || params.toolChoice !== undefined) && handler.samplingTools !== true)
        throw new ClientError(
          'protocol_error',
          `the server sent tools in a sampling request${context.during ? ` during ${context.during}` : ''}, and this client did not declare sampling.tools`,
          { details: { method: request.method } },
        )
      return checkedAnswer(await handler.sample(params as SamplingRequest, context), params)
    case 'roots/list':
      if (!handler?.roots) throw refuse('this client does not share roots')
      return { roots: await handler.roots(context) }
    default:
      throw new ClientError(
        'protocol_error',
        `the server sent a ${JSON.stringify(request.method)} request, which clients do not answer`,
      )
  }
}
