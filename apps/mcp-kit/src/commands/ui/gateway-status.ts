// The admin view of an mcp-kit gateway (issue 36): for a server connected over HTTP, its
// `/admin/status` read with the connection's own credentials (the reference's or profile's
// headers, `--header`, else its OAuth login), checked for shape and handed to the page, which polls it.

import type { ConnectionArguments } from '../../session/connection-flags.js'
import { parseHeaders } from '../../session/open-session.js'
import type { ServerEntry } from './server-entry.js'

const largestAnswer = 4 * 1024 * 1024
const timeoutMs = 5000

export interface UpstreamView {
  name: string
  up: boolean
  state: string
  restarts: number
  tools: number
  protocolVersion?: string
  error?: string
}

export interface FigureView {
  upstream: string
  method: string
  name: string
  calls: number
  errors: number
  p50_ms?: number
  p95_ms?: number
  p99_ms?: number
}

export type GatewayStatusView =
  | { available: true; url: string; upstreams: UpstreamView[]; calls: FigureView[]; at: string }
  | { available: false; reason: 'not-http' | 'not-gateway' | 'forbidden' | 'unreachable'; message: string }

const number = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0)
const optionalNumber = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined
const string = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : ''

/** The answer of /admin/status as the page shows it; anything else is not a gateway's. */
export function statusView(
  value: unknown,
): Pick<Extract<GatewayStatusView, { available: true }>, 'upstreams' | 'calls'> | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const { upstreams, calls } = value as { upstreams?: unknown; calls?: unknown }
  if (
    typeof upstreams !== 'object' ||
    upstreams === null ||
    Array.isArray(upstreams) ||
    !Array.isArray(calls)
  )
    return undefined
  return {
    upstreams: Object.entries(upstreams as Record<string, Record<string, unknown>>).map(([name, each]) => ({
      name,
      up: each?.up === true,
      state: string(each?.state),
      restarts: number(each?.restarts),
      tools: number(each?.tools),
      ...(typeof each?.protocolVersion === 'string' ? { protocolVersion: each.protocolVersion } : {}),
      ...(typeof each?.error === 'string' ? { error: each.error } : {}),
    })),
    calls: (calls as Array<Record<string, unknown>>)
      .filter((each) => typeof each === 'object' && each !== null)
      .map((each) => ({
        upstream: string(each.upstream),
        method: string(each.method),
        name: string(each.name),
        calls: number(each.calls),
        errors: number(each.errors),
        p50_ms: optionalNumber(each.p50_ms),
        p95_ms: optionalNumber(each.p95_ms),
        p99_ms: optionalNumber(each.p99_ms),
      })),
  }
}

async function readLimited(response: Response): Promise<string> {
  const reader = response.body?.getReader()
  if (reader === undefined) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.length
    if (size > largestAnswer) {
      await reader.cancel()
      throw new Error('the answer is larger than 4 MiB')
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** The OAuth access token of `mcp-kit auth login` (or of the session's own login) for the server, if any. */
async function storedToken(
  url: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string | undefined> {
  const { credentialKey, defaultCredentialsPath, fileCredentialStore } = await import('@mcp-kit/client')
  try {
    const entry = fileCredentialStore(defaultCredentialsPath(env)).read().tokens[credentialKey(url)]
    return entry?.tokens.access_token
  } catch {
    return undefined
  }
}

/** Reads the gateway's /admin/status beside the server's MCP endpoint, with its credentials. */
export async function gatewayStatus(
  entry: ServerEntry,
  args: ConnectionArguments,
): Promise<GatewayStatusView> {
  const server = entry.resolved?.server
  if (server === undefined || server.transport !== 'http')
    return { available: false, reason: 'not-http', message: 'not a server over HTTP' }
  const url = new URL('/admin/status', server.url)
  // The credentials the connection itself uses: only ever sent to the server's own origin.
  const headers: Record<string, string> = {
    ...server.headers,
    ...parseHeaders(args.header ?? []),
    accept: 'application/json',
  }
  if (!Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')) {
    const token = await storedToken(server.url, entry.io().env)
    if (token !== undefined) headers.authorization = `Bearer ${token}`
  }
  let response: Response
  try {
    response = await fetch(url, { headers, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) })
  } catch (error) {
    return {
      available: false,
      reason: 'unreachable',
      message: `cannot reach ${url.origin}: ${(error as Error).message}`,
    }
  }
  if (response.status === 401 || response.status === 403) {
    await response.body?.cancel()
    return {
      available: false,
      reason: 'forbidden',
      message: `the gateway refuses its admin status to these credentials (HTTP ${response.status}): connect with a token its controls name under 'admin'`,
    }
  }
  const text = response.ok ? await readLimited(response).catch(() => '') : ''
  if (!response.ok) await response.body?.cancel().catch(() => {})
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    parsed = undefined
  }
  const view = statusView(parsed)
  if (view === undefined)
    return {
      available: false,
      reason: 'not-gateway',
      message: `no mcp-kit gateway status at ${url.pathname} (HTTP ${response.status})`,
    }
  return { available: true, url: url.href, ...view, at: new Date().toISOString() }
}
