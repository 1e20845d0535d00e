// The questions a 2025-era session (legacy-session.ts) asks its client for a handler
// (elicitation, sampling, roots): each becomes a server-to-client request, checked first against
// the capabilities the client declared, with an id of its own (`mcp-kit-<n>`, or
// `mcp-kit-<tag>-<n>` to name the instance that asked). A question is given up, and the client
// told, when the request that asked is cancelled or no answer comes in time; an answer is
// checked before the handler gets it.

import { isRecord } from '@mcp-kit/core'
import type { ClientCapabilities, InputRequest } from '../context.js'
import { rpcCodes, ServerError } from '../errors.js'
import { validAnswer } from '../protocol/input-required.js'
import type { InputChannel } from '../protocol/request-context.js'
import type { RequestId, RpcMessage } from '../protocol/rpc.js'

/** Where questions go: the session's channel (SessionChannel in legacy-session.ts). */
export interface QuestionChannel {
  send(message: RpcMessage, options: { relatedRequestId: RequestId }): Promise<void>
}

export interface QuestionOptions {
  /** Put in the ids of questions to the client (`mcp-kit-<tag>-<n>`): names the instance that asked. */
  questionTag?: string
  /** A question to the client (elicitation, sampling, roots) unanswered this long fails (0: waits for ever). */
  questionTimeoutMs?: number
  /** Told the id of each question before it goes out (a shared session notes it in the store). */
  onAsk?: (id: RequestId) => Promise<void>
}

interface Outgoing {
  resolve: (result: Record<string, unknown>) => void
  reject: (error: unknown) => void
}

export class ClientQuestions {
  readonly #channel: QuestionChannel
  readonly #options: QuestionOptions
  /** True once the session ended: no question goes out any more, none is cancelled. */
  readonly #ended: () => boolean
  readonly #outgoing = new Map<RequestId, Outgoing>()
  #nextOutgoingId = 0

  constructor(channel: QuestionChannel, options: QuestionOptions, ended: () => boolean) {
    this.#channel = channel
    this.#options = options
    this.#ended = ended
  }

  /** False when no question of this session waits for this answer here. */
  handleResponse(message: { id: RequestId; result?: unknown; error?: unknown }): boolean {
    const pending = this.#outgoing.get(message.id)
    if (pending === undefined) return false
    this.#outgoing.delete(message.id)
    if (isRecord(message.error)) {
      const code = typeof message.error.code === 'number' ? message.error.code : rpcCodes.internalError
      const text = typeof message.error.message === 'string' ? message.error.message : 'unknown error'
      pending.reject(new ServerError('server_error', `the client answered with an error: ${text} (${code})`))
    } else if (isRecord(message.result)) pending.resolve(message.result)
    else pending.reject(new ServerError('server_error', 'the client sent an invalid answer'))
    return true
  }

  /** The ids of the questions still waiting for their answers. */
  pending(): RequestId[] {
    return [...this.#outgoing.keys()]
  }

  /** Fails every question still waiting for its answer (the session ended). */
  rejectAll(reason: unknown): void {
    for (const pending of this.#outgoing.values()) pending.reject(reason)
    this.#outgoing.clear()
  }

  /** How a handler's questions reach the client; `capabilities` are the client's, as declared by now. */
  inputChannel(
    relatedRequestId: RequestId,
    signal: AbortSignal,
    capabilities: () => ClientCapabilities | undefined,
  ): InputChannel {
    return {
      ask: async (requests) => {
        const keys = Object.keys(requests)
        for (const key of keys) this.#checkCapability(requests[key] as InputRequest, capabilities())
        const answers = await Promise.all(
          keys.map((key) => this.#request(requests[key] as InputRequest, relatedRequestId, signal)),
        )
        return Object.fromEntries(keys.map((key, index) => [key, answers[index]]))
      },
    }
  }

  #checkCapability(request: InputRequest, clientCapabilities: ClientCapabilities | undefined): void {
    const capabilities = (clientCapabilities ?? {}) as Record<string, Record<string, unknown> | undefined>
    const unsupported = (what: string) =>
      new ServerError('unsupported', `the client does not support ${what}`, { details: { feature: what } })
    if (request.method === 'sampling/createMessage') {
      if (!capabilities.sampling) throw unsupported('sampling')
      // Tools in a sampling request need the client's `sampling.tools` (spec 2025-11-25).
      const withTools = request.params.tools !== undefined || request.params.toolChoice !== undefined
      if (withTools && !capabilities.sampling.tools) throw unsupported('sampling with tools')
    }
    if (request.method === 'roots/list' && !capabilities.roots) throw unsupported('roots')
    if (request.method === 'elicitation/create') {
      const elicitation = capabilities.elicitation
      if (!elicitation) throw unsupported('elicitation')
      if (request.params.mode === 'url' && !elicitation.url) throw unsupported('URL elicitation')
    }
  }

  #request(
    request: InputRequest,
    relatedRequestId: RequestId,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    if (this.#ended()) return Promise.reject(new ServerError('cancelled', 'the session ended'))
    if (signal.aborted) return Promise.reject(signal.reason)
    const tag = this.#options.questionTag
    const id =
      tag === undefined ? `mcp-kit-${this.#nextOutgoingId++}` : `mcp-kit-${tag}-${this.#nextOutgoingId++}`
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined
      const settled = () => {
        clearTimeout(timer)
        signal.removeEventListener('abort', onAbort)
      }
      const giveUp = (reason: string, error: unknown) => {
        if (!this.#outgoing.delete(id)) return
        settled()
        // On the asking request's stream while it is open (else the session's stream).
        if (!this.#ended())
          this.#channel
            .send(
              { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } },
              { relatedRequestId },
            )
            .catch(() => {})
        reject(error)
      }
      const onAbort = () => giveUp('the request that asked was cancelled', signal.reason)
      signal.addEventListener('abort', onAbort, { once: true })
      const limitMs = this.#options.questionTimeoutMs ?? 0
      if (limitMs > 0) {
        timer = setTimeout(() => {
          const seconds = Math.round(limitMs / 100) / 10
          giveUp(
            `no answer within ${seconds} s`,
            new ServerError(
              'server_error',
              `the client did not answer ${request.method} within ${seconds} s`,
            ),
          )
        }, limitMs)
        timer.unref()
      }
      this.#outgoing.set(id, {
        resolve: (result) => {
          settled()
          if (validAnswer(request.method, result)) resolve(result)
          else
            reject(new ServerError('server_error', `the client sent an invalid answer to ${request.method}`))
        },
        reject: (error) => {
          settled()
          reject(error)
        },
      })
      const message = { jsonrpc: '2.0' as const, id, method: request.method, params: request.params ?? {} }
      // Given up meanwhile (cancelled, timed out, the session ended): it never goes out.
      const send = () =>
        this.#outgoing.has(id) ? this.#channel.send(message, { relatedRequestId }) : undefined
      // A shared session notes the question first; a session alone sends it at once.
      const onAsk = this.#options.onAsk
      const sent = onAsk === undefined ? Promise.resolve(send()) : onAsk(id).then(send)
      sent.catch((error: unknown) => {
        const pending = this.#outgoing.get(id)
        if (pending === undefined) return
        this.#outgoing.delete(id)
        pending.reject(error)
      })
    })
  }
}
