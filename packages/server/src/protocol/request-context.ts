// The one HandlerContext implementation behind every request, whatever its era: the edge that
// received the request (a 2025-11-25 session, a 2026-07-28 request, the embedded runtime) fills
// in who asked and supplies three sinks — progress, log, and an InputChannel that answers the
// handler's questions (server-to-client requests, or input_required rounds).

import type {
  AskOptions,
  AuthInfo,
  ClientCapabilities,
  ElicitationRequest,
  ElicitResult,
  HandlerContext,
  Implementation,
  InputRequest,
  InputResponseFor,
  ListRootsResult,
  LoggingLevel,
  SamplingRequest,
  SamplingResult,
  TraceContext,
} from '../context.js'
import { ServerError } from '../errors.js'
import type { TraceAnnotations } from '../trace.js'
import { severity } from './params.js'

/** Answers a handler's questions, all keys at once. */
export interface InputChannel {
  ask(requests: Record<string, InputRequest>): Promise<Record<string, unknown>>
  /** Only a 2026-07-28 round's channel carries state to the retry (HandlerContext.roundState). */
  roundState?: string | undefined
}

export interface RequestContextInit {
  signal: AbortSignal
  requestId: string | number | undefined
  sessionId?: string
  authInfo?: AuthInfo
  clientInfo?: Implementation
  clientCapabilities?: ClientCapabilities
  protocolVersion?: string
  /** The W3C trace context the request came with (trace-context.ts). */
  traceContext?: TraceContext
  /** The request's `_meta.progressToken`; progress is only sent when there is one. */
  progressToken?: string | number
  /** Sends a notification that belongs to this request (progress, log messages). */
  notify?: (method: string, params: Record<string, unknown>) => Promise<void>
  /** Log messages below this level are dropped; undefined = send none (2026-07-28) unless `logAll`. */
  logLevel?: LoggingLevel
  /** Send every log message when no level is set (2025-11-25: the client has not set one). */
  logAll?: boolean
  input: InputChannel
  closeStream?: () => void
  /** The error for capabilities the client did not declare (era-specific). */
  missingCapabilities?: (missing: ClientCapabilities) => Error
  /** Turns the call into a task (tasks/call.ts); absent where calls cannot become tasks. */
  startTask?: () => Promise<void>
  /** The task the call runs as, once it is one. */
  taskId?: string
}

/** What changes when a call becomes a task: where questions, progress and log messages go. */
export type TaskBinding = Pick<
  RequestContextInit,
  'input' | 'notify' | 'progressToken' | 'closeStream' | 'taskId'
>

export class RequestContext implements HandlerContext {
  readonly signal: AbortSignal
  readonly requestId: string | number | undefined
  readonly sessionId: string | undefined
  readonly authInfo: AuthInfo | undefined
  readonly clientInfo: Implementation | undefined
  readonly clientCapabilities: ClientCapabilities | undefined
  readonly protocolVersion: string | undefined
  readonly traceContext: TraceContext | undefined
  #init: RequestContextInit
  #asked = 0
  /** What the handler added to its trace entry (annotateTrace). */
  traceAnnotations: TraceAnnotations | undefined

  constructor(init: RequestContextInit) {
    this.#init = init
    this.signal = init.signal
    this.requestId = init.requestId
    this.sessionId = init.sessionId
    this.authInfo = init.authInfo
    this.clientInfo = init.clientInfo
    this.clientCapabilities = init.clientCapabilities
    this.protocolVersion = init.protocolVersion
    this.traceContext = init.traceContext
  }

  get taskId(): string | undefined {
    return this.#init.taskId
  }

  get roundState(): string | undefined {
    return this.#init.input.roundState
  }

  set roundState(value: string | undefined) {
    const input = this.#init.input
    if ('roundState' in input) input.roundState = value
  }

  startTask(): Promise<void> {
    return this.#init.startTask?.() ?? Promise.resolve()
  }

  /** Sends the rest of the call's questions, progress and log messages to its task. */
  bindTask(binding: TaskBinding): void {
    this.#init = { ...this.#init, ...binding, startTask: undefined, logLevel: undefined, logAll: false }
  }

  annotateTrace(fields: TraceAnnotations): void {
    this.traceAnnotations = { ...this.traceAnnotations, ...fields }
  }

  async progress(progress: number, total?: number, message?: string): Promise<void> {
    const { progressToken, notify } = this.#init
    if (progressToken === undefined || notify === undefined || this.signal.aborted) return
    const params: Record<string, unknown> = { progressToken, progress }
    if (total !== undefined) params.total = total
    if (message !== undefined) params.message = message
    await notify('notifications/progress', params)
  }

  async log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    const { notify, logLevel, logAll } = this.#init
    if (notify === undefined || this.signal.aborted) return
    if (logLevel === undefined ? !logAll : severity[level] < severity[logLevel]) return
    const params: Record<string, unknown> = { level, data }
    if (logger !== undefined) params.logger = logger
    await notify('notifications/message', params)
  }

  sample(request: SamplingRequest, options?: AskOptions): Promise<SamplingResult> {
    return this.#one({ method: 'sampling/createMessage', params: request }, 'sampling', options)
  }

  elicit(request: ElicitationRequest, options?: AskOptions): Promise<ElicitResult> {
    return this.#one({ method: 'elicitation/create', params: request }, 'elicitation', options)
  }

  listRoots(options?: AskOptions): Promise<ListRootsResult> {
    return this.#one({ method: 'roots/list' }, 'roots', options)
  }

  async ask<T extends Record<string, InputRequest>>(
    requests: T,
  ): Promise<{ [K in keyof T]: InputResponseFor<T[K]> }> {
    return (await this.#init.input.ask(requests)) as { [K in keyof T]: InputResponseFor<T[K]> }
  }

  requireCapabilities(required: ClientCapabilities): void {
    const missing = missingCapabilities(required, this.clientCapabilities)
    if (missing === undefined) return
    throw (
      this.#init.missingCapabilities?.(missing) ??
      new ServerError('unsupported', `the client does not support ${Object.keys(missing).join(', ')}`, {
        details: { feature: Object.keys(missing).join(', ') },
      })
    )
  }

  closeStream(): void {
    this.#init.closeStream?.()
  }

  async #one<T>(request: InputRequest, kind: string, options: AskOptions | undefined): Promise<T> {
    this.#asked += 1
    const key = options?.key ?? `${kind}-${this.#asked}`
    const answers = await this.#init.input.ask({ [key]: request })
    return answers[key] as T
  }
}

/**
 * The part of `required` the client did not declare, or undefined when everything is declared.
 * A capability's named members (e.g. `elicitation: { url: {} }`) must be declared too; a bare
 * `elicitation: {}` counts as form support (its 2025 meaning).
 */
export function missingCapabilities(
  required: ClientCapabilities,
  declared: ClientCapabilities | undefined,
): ClientCapabilities | undefined {
  const missing: Record<string, unknown> = {}
  const has = (declared ?? {}) as Record<string, unknown>
  for (const [name, requirement] of Object.entries(required)) {
    if (requirement === undefined) continue
    const value = has[name]
    if (value === undefined || value === null) {
      missing[name] = requirement
      continue
    }
    if (typeof requirement !== 'object' || typeof value !== 'object') continue
    const members: Record<string, unknown> = {}
    for (const [member, memberRequirement] of Object.entries(requirement as Record<string, unknown>)) {
      const declaredMember = (value as Record<string, unknown>)[member]
      const impliedForm =
        name === 'elicitation' && member === 'form' && (value as Record<string, unknown>).url === undefined
      if (memberRequirement !== undefined && declaredMember === undefined && !impliedForm) {
        members[member] = memberRequirement
      }
    }
    if (Object.keys(members).length > 0) missing[name] = members
  }
  return Object.keys(missing).length > 0 ? (missing as ClientCapabilities) : undefined
}
