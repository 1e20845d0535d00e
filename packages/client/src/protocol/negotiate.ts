// Which era a server speaks, decided once per connection (docs/architecture.md "Protocol eras"): only a
// valid DiscoverResult makes a server modern; anything else means 2025 and initialize on the same connection.

import { type Era, isModernVersion, isRecord, modernProtocolVersions, rpcCodes } from '@mcp-kit/core'
import type { Implementation, InitializeResult, ServerCapabilities } from '@modelcontextprotocol/client'
import { ClientError } from '../errors.js'
import type { Connection } from './connection.js'
import type { Envelope } from './envelope.js'
import { RpcError } from './rpc-error.js'
import { tasksExtension } from './tasks.js'

/** `auto`, or one revision to speak and nothing else. */
export type ProtocolChoice = 'auto' | string

export interface Negotiated {
  era: Era
  protocolVersion: string
  serverInfo: Implementation
  capabilities: ServerCapabilities
  instructions: string | undefined
  /** The cache hint of `server/discover` (2026-07-28). */
  cacheHint: { ttlMs: number; scope: string } | undefined
  /** The era was taken because the probe got no answer in time (a slow server, maybe not a 2025 one). */
  guessed?: boolean
}

export interface NegotiateOptions {
  choice: ProtocolChoice
  clientInfo: { name: string; version: string }
  capabilities: Record<string, unknown>
  /** The whole negotiation's limit: probe and initialize together. */
  timeoutMs: number
  /** How long the `server/discover` probe waits before deciding "legacy" (at most what is left of timeoutMs). */
  probeTimeoutMs: number
  signal?: AbortSignal
  /** The remembered verdict for this server, if any. */
  remembered?: Era
  onDiagnostic?: (message: string) => void
}

/** The transport side of switching eras (HTTP changes headers and session handling). */
interface EraTransport {
  era?: Era
  /** undefined: no version header (a 2025-11-25 `initialize`). */
  setProtocolVersion?: (version: string | undefined) => void
}

/** How an answer that decided the era is shown in a diagnostic: short, one line, printable. */
function shown(value: unknown): string {
  let text: string
  try {
    text = value === undefined ? 'nothing' : (JSON.stringify(value) ?? String(value))
  } catch {
    text = String(value)
  }
  const printable = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?')
  return printable.length > 80 ? `${printable.slice(0, 80)}…` : printable
}

/** The probe's answer was not a DiscoverResult: the server is not a 2026-07-28 one. */
class NotDiscoverResult extends Error {
  override readonly name = 'NotDiscoverResult'
  constructor(readonly answer: unknown) {
    super(`server/discover answered ${shown(answer)}, which is not a DiscoverResult`)
  }
}

/** The probe's result, if it is a valid DiscoverResult. */
function discoverResult(result: unknown): Record<string, unknown> | undefined {
  if (!isRecord(result) || !isRecord(result.capabilities)) return undefined
  const versions = result.supportedVersions
  if (!Array.isArray(versions) || versions.length === 0) return undefined
  return versions.every((version) => typeof version === 'string') ? result : undefined
}

/** Thrown when a probe ended the server process (stdio): launch again and initialize. */
export class ProbeEndedServer extends Error {
  override readonly name = 'ProbeEndedServer'
}

async function discover(
  connection: Connection,
  transport: EraTransport,
  envelope: Envelope,
  options: NegotiateOptions,
  timeoutMs: number,
): Promise<Negotiated> {
  // Only a transport that knows eras gets the version header now (initialize drops it again for a
  // legacy fallback); for others the header would stick and mislabel the `initialize` that follows.
  if ('era' in transport) {
    transport.era = 'modern'
    transport.setProtocolVersion?.(envelope.protocolVersion)
  }
  connection.useEnvelope(envelope)
  const answer = await connection.request('server/discover', {}, { timeoutMs, signal: options.signal })
  const result = discoverResult(answer)
  if (result === undefined) throw new NotDiscoverResult(answer)
  options.onDiagnostic?.(
    `server/discover answered a DiscoverResult (versions ${(result.supportedVersions as string[]).join(', ')}); speaking ${envelope.protocolVersion}`,
  )
  const meta = isRecord(result._meta) ? result._meta : {}
  const serverInfo = meta['io.modelcontextprotocol/serverInfo']
  return {
    era: 'modern',
    protocolVersion: envelope.protocolVersion,
    serverInfo: isRecord(serverInfo)
      ? (serverInfo as unknown as Implementation)
      : { name: 'unknown', version: '' },
    capabilities: result.capabilities as ServerCapabilities,
    instructions: typeof result.instructions === 'string' ? result.instructions : undefined,
    cacheHint:
      typeof result.ttlMs === 'number'
        ? {
            ttlMs: result.ttlMs,
            scope: typeof result.cacheScope === 'string' ? result.cacheScope : 'private',
          }
        : undefined,
  }
}

async function initialize(
  connection: Connection,
  transport: EraTransport,
  options: NegotiateOptions,
  version?: string,
): Promise<Negotiated> {
  // 2025-11-25 sends no version header until initialize has settled the version: the 2026-07-28 one
  // a refused probe left would label this initialize as 2026 traffic, which servers that route by
  // it (the SDK's isLegacyRequest, fastmcp through mcp-proxy) refuse.
  if ('era' in transport) {
    transport.era = 'legacy'
    transport.setProtocolVersion?.(undefined)
  }
  const result: InitializeResult = await connection.initialize(
    options.clientInfo,
    options.timeoutMs,
    options.signal,
    options.capabilities,
    version,
  )
  return {
    era: 'legacy',
    protocolVersion: result.protocolVersion,
    serverInfo: result.serverInfo,
    capabilities: result.capabilities ?? {},
    instructions: result.instructions,
    cacheHint: undefined,
  }
}

function httpStatus(error: unknown): number | undefined {
  const status = (error as { status?: unknown })?.status
  return typeof status === 'number' ? status : undefined
}

/** A recognized modern answer to the probe: an UnsupportedProtocolVersion error naming modern versions. */
function modernVersionsOffered(error: unknown): string[] | undefined {
  if (!(error instanceof RpcError) || error.code !== rpcCodes.unsupportedProtocolVersion) return undefined
  const supported = isRecord(error.data) ? error.data.supported : undefined
  return Array.isArray(supported) ? supported.filter((v): v is string => typeof v === 'string') : []
}

/** Why the probe did not make the server a modern one, in one line. */
function probeFailure(error: unknown): string {
  if (error instanceof NotDiscoverResult) return error.message
  if (error instanceof RpcError) return `server/discover: ${shown(error.message)} (error ${error.code})`
  if (ClientError.isInstance(error) && error.code === 'timeout') return 'server/discover: no answer in time'
  return `server/discover: ${shown((error as Error)?.message ?? error)}`
}

/** A pinned modern version: a server that does not answer the probe as one gets a clear error. */
async function discoverPinned(
  connection: Connection,
  transport: EraTransport,
  envelope: Envelope,
  options: NegotiateOptions,
): Promise<Negotiated> {
  try {
    return await discover(connection, transport, envelope, options, options.timeoutMs)
  } catch (error) {
    if (options.signal?.aborted || modernVersionsOffered(error) !== undefined) throw error
    if (!(error instanceof NotDiscoverResult) && !(error instanceof RpcError)) throw error
    throw new ClientError(
      'protocol_error',
      `the server does not speak MCP ${envelope.protocolVersion}, the version asked for (${probeFailure(error)}); let the version be negotiated to speak an older one`,
      { cause: error },
    )
  }
}

export async function negotiate(
  connection: Connection,
  transport: EraTransport,
  options: NegotiateOptions,
): Promise<Negotiated> {
  // One limit for the whole negotiation (the connect timeout): a probe that got no answer leaves
  // what is left of it to initialize, so a server that never answers fails within the limit.
  const deadline = Date.now() + options.timeoutMs
  const left = () => Math.max(1, deadline - Date.now())
  // 2026-07-28 requests declare the tasks extension: sessions follow the tasks servers hand out.
  const extensions = (options.capabilities as { extensions?: Record<string, unknown> }).extensions
  const envelope = (version: string): Envelope => ({
    protocolVersion: version,
    capabilities: { ...options.capabilities, extensions: { ...extensions, [tasksExtension]: {} } },
    clientInfo: options.clientInfo,
  })
  if (options.choice !== 'auto') {
    if (isModernVersion(options.choice))
      return discoverPinned(connection, transport, envelope(options.choice), options)
    return initialize(connection, transport, options, options.choice)
  }
  if (options.remembered === 'legacy') {
    try {
      return await initialize(connection, transport, options)
    } catch (error) {
      // The server may have moved on to 2026: probe after all.
      if (!(error instanceof RpcError)) throw error
      options.onDiagnostic?.(`remembered as a 2025 server, but initialize failed (${error.message}); probing`)
    }
  }
  try {
    return await discover(
      connection,
      transport,
      envelope(modernProtocolVersions[0]),
      options,
      Math.min(options.probeTimeoutMs, left()),
    )
  } catch (error) {
    if (options.signal?.aborted) throw error
    if (connection.closed) throw new ProbeEndedServer('the server went away after the server/discover probe')
    const offered = modernVersionsOffered(error)
    if (offered !== undefined) {
      // A modern server refused the version: retry once with one both speak (even the same one,
      // should the server have refused it only this time).
      const common = offered.find(isModernVersion)
      if (common !== undefined) return discover(connection, transport, envelope(common), options, left())
      options.onDiagnostic?.(
        `the server speaks ${offered.join(', ') || 'no version'} of the modern era; trying initialize`,
      )
    } else if (ClientError.isInstance(error) && error.code !== 'timeout' && error.code !== 'protocol_error') {
      throw error
    } else if (httpStatus(error) === 401 || httpStatus(error) === 403) {
      // Refused for want of credentials: that says nothing about the era, and initialize would be refused too.
      throw error
    } else {
      options.onDiagnostic?.(`${probeFailure(error)}; speaking 2025-11-25 (initialize)`)
    }
    connection.useEnvelope(undefined)
    const negotiated = await initialize(connection, transport, { ...options, timeoutMs: left() })
    return ClientError.isInstance(error) && error.code === 'timeout'
      ? { ...negotiated, guessed: true }
      : negotiated
  }
}
