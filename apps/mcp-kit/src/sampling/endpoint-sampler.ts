// Sampling answered by an OpenAI-compatible chat-completions endpoint (openai-request.ts and
// openai-response.ts hold the mapping). The model is --sampling-model; without it, the server's
// hints choose among the models the endpoint lists (GET {base}/models, asked once): the first
// hint that names a model (its whole id, else a part of it, as the spec reads hints), else the
// first model listed. The API key goes only over https or to this machine, never through a
// redirect, and appears in no message. Answers are read up to a size limit.

import type { InputContext, SamplingRequest, SamplingResult } from '@mcp-kit/client'
import { isRecord } from '@mcp-kit/core'
import { chatCompletionsBody } from './openai-request.js'
import { samplingResult } from './openai-response.js'
import { samplingFailed } from './sampling-answer.js'

type Fetch = (url: string, init: RequestInit) => Promise<Response>

export interface EndpointSamplerOptions {
  /** The endpoint's base URL, before `/chat/completions` (e.g. http://127.0.0.1:11434/v1). */
  base: string
  /** The model to use whatever the server hints; undefined: chosen by the hints. */
  model: string | undefined
  /** The API key, read when first needed (undefined: none). */
  key: () => Promise<string | undefined>
  /** The largest answer read, in bytes (default 16 MiB). */
  maxResponseBytes?: number
  fetch?: Fetch
}

function isLoopback(url: URL): boolean {
  const host = url.hostname
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host)
}

/** The model among `models` the first hint names: its whole id, else a part of it (case aside). */
export function modelForHints(models: readonly string[], hints: readonly unknown[]): string | undefined {
  for (const hint of hints) {
    const name = isRecord(hint) && typeof hint.name === 'string' ? hint.name.toLowerCase() : ''
    if (name === '') continue
    const found =
      models.find((model) => model.toLowerCase() === name) ??
      models.find((model) => model.toLowerCase().includes(name))
    if (found !== undefined) return found
  }
  return models[0]
}

/** The body of `response` as text, refusing more than `limit` bytes. */
async function readLimited(response: Response, limit: number): Promise<string> {
  const reader = response.body?.getReader()
  if (reader === undefined) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.length
    if (size > limit) {
      await reader.cancel().catch(() => {})
      throw samplingFailed(`the sampling endpoint's answer is larger than ${limit} bytes`)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** What an endpoint's error answer says (OpenAI: {error: {message}}; Ollama: {error: "…"}). */
function errorText(text: string): string {
  let said = text
  try {
    const body = JSON.parse(text) as unknown
    const error = isRecord(body) ? body.error : undefined
    said =
      typeof error === 'string'
        ? error
        : isRecord(error) && typeof error.message === 'string'
          ? error.message
          : text
  } catch {
    // Not JSON: the text itself.
  }
  const line = said.replace(/\s+/g, ' ').trim()
  return line.length > 300 ? `${line.slice(0, 299)}…` : line
}

export function endpointSampler(
  options: EndpointSamplerOptions,
): (request: SamplingRequest, context: InputContext) => Promise<SamplingResult> {
  const fetch: Fetch = options.fetch ?? ((url, init) => globalThis.fetch(url, init))
  const limit = options.maxResponseBytes ?? 16 * 1024 * 1024
  const base = new URL(options.base)
  let key: Promise<string | undefined> | undefined
  let models: Promise<string[]> | undefined

  async function send(path: string, init: RequestInit, signal: AbortSignal): Promise<unknown> {
    key ??= options.key()
    const secret = await key
    if (secret !== undefined && base.protocol !== 'https:' && !isLoopback(base))
      throw samplingFailed(
        `the API key goes only over https or to this machine, and ${base.origin} is neither: use https, or no key`,
      )
    const url = `${options.base}${path}`
    let response: Response
    try {
      response = await fetch(url, {
        ...init,
        headers: {
          accept: 'application/json',
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(secret === undefined ? {} : { authorization: `Bearer ${secret}` }),
        },
        // A redirect would take the key elsewhere.
        redirect: 'manual',
        signal,
      })
    } catch (error) {
      if (signal.aborted) throw signal.reason
      const cause = (error as { cause?: { code?: string; message?: string } }).cause
      throw samplingFailed(
        `cannot reach the sampling endpoint ${url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
      )
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => {})
      throw samplingFailed(
        `the sampling endpoint ${url} redirects (HTTP ${response.status}) to ${response.headers.get('location') ?? 'elsewhere'}; give that URL instead`,
      )
    }
    const text = await readLimited(response, limit)
    if (!response.ok) {
      const hint =
        response.status === 401 || response.status === 403
          ? ' (is the API key right? --sampling-key-secret or MCP_KIT_SAMPLING_KEY)'
          : ''
      throw samplingFailed(
        `the sampling endpoint ${url} answered HTTP ${response.status}: ${errorText(text)}${hint}`,
        {
          status: response.status,
        },
      )
    }
    try {
      return JSON.parse(text) as unknown
    } catch {
      throw samplingFailed(`the sampling endpoint ${url} answered with something that is not JSON`)
    }
  }

  async function modelFor(request: SamplingRequest, signal: AbortSignal): Promise<string> {
    if (options.model !== undefined) return options.model
    models ??= send('/models', { method: 'GET' }, signal).then((body) => {
      const data = isRecord(body) && Array.isArray(body.data) ? body.data : []
      return data.flatMap((entry) => (isRecord(entry) && typeof entry.id === 'string' ? [entry.id] : []))
    })
    // A failed listing is asked again next time.
    const listed = await models.catch((error) => {
      models = undefined
      throw samplingFailed(
        `give --sampling-model: the endpoint's models could not be listed (${(error as Error).message})`,
      )
    })
    const model = modelForHints(listed, request.modelPreferences?.hints ?? [])
    if (model === undefined) throw samplingFailed('give --sampling-model: the endpoint lists no models')
    return model
  }

  return async (request, context) => {
    const model = await modelFor(request, context.signal)
    const body = chatCompletionsBody(request, model)
    const answer = await send(
      '/chat/completions',
      { method: 'POST', body: JSON.stringify(body) },
      context.signal,
    )
    return samplingResult(answer, request, model)
  }
}
