// Multi round-trip requests (2026-07-28): an `input_required` answer is answered through the InputHandler
// and the call retried with `inputResponses`; also the `Mcp-Param-*` headers a tools/call mirrors.

import { findParamHeaders, isRecord, type ParamHeadersResult, paramHeadersFor } from '@mcp-kit/core'
import type { Tool } from '@modelcontextprotocol/client'
import { ClientError } from '../errors.js'
import { answerInput, type InputHandler } from './input.js'

export const maximumRounds = 16

export type Send = (params: Record<string, unknown>) => Promise<unknown>

/** Runs a request to completion through as many input rounds as the server asks for. */
export async function withInputRounds(
  what: string,
  params: Record<string, unknown>,
  send: Send,
  handler: InputHandler | undefined,
  signal: AbortSignal,
  inputTimeoutMs = 0,
): Promise<unknown> {
  let retry = params
  for (let round = 1; ; round++) {
    const result = await send(retry)
    if (!isRecord(result)) return result
    const type = result.resultType
    // A task (the tasks extension) is the caller's to follow.
    if (type === undefined || type === 'complete' || type === 'task') return result
    if (type !== 'input_required') {
      throw new ClientError(
        'protocol_error',
        `${what}: the server answered with resultType '${String(type)}', which this client does not know`,
      )
    }
    if (round >= maximumRounds) {
      throw new ClientError(
        'protocol_error',
        `${what}: the server still wanted input after ${maximumRounds} rounds`,
      )
    }
    const requests = isRecord(result.inputRequests) ? result.inputRequests : {}
    const inputResponses: Record<string, unknown> = {}
    for (const [key, request] of Object.entries(requests)) {
      if (!isRecord(request) || typeof request.method !== 'string') {
        throw new ClientError('protocol_error', `${what}: input request '${key}' is malformed`)
      }
      inputResponses[key] = await answerInput(
        handler,
        { method: request.method, params: isRecord(request.params) ? request.params : undefined },
        { during: what, signal },
        inputTimeoutMs,
      )
    }
    retry = { ...params, inputResponses }
    if (typeof result.requestState === 'string') retry.requestState = result.requestState
  }
}

/** The x-mcp-header facts of a tool list: headers per tool, and tools to leave out. */
export interface ParamHeaderIndex {
  headersFor(tool: string, args: Record<string, unknown>): Record<string, string> | undefined
  /** Tools whose x-mcp-header annotations are invalid (spec: clients leave them out), with why. */
  invalid: Map<string, string>
}

export function indexParamHeaders(tools: readonly Tool[]): ParamHeaderIndex {
  const found = new Map<string, ParamHeadersResult>()
  const invalid = new Map<string, string>()
  for (const tool of tools) {
    const result = findParamHeaders(tool.inputSchema)
    if (!result.ok) invalid.set(tool.name, result.problem)
    else if (result.headers.length > 0) found.set(tool.name, result)
  }
  return {
    invalid,
    headersFor(tool, args) {
      const result = found.get(tool)
      return result?.ok ? paramHeadersFor(result.headers, args) : undefined
    },
  }
}
