// The first exchange on a transport connect() opened: a Connection whose server messages reach the
// session once it exists, then the era negotiated and remembered in the era cache.

import type { LoggingMessageNotification } from '@modelcontextprotocol/client'
import { ClientError } from '../errors.js'
import { Connection } from '../protocol/connection.js'
import { answerInput, capabilitiesOf, isInputTimeout } from '../protocol/input.js'
import type { MessageTransport } from '../protocol/message-transport.js'
import { type Negotiated, negotiate } from '../protocol/negotiate.js'
import type { ServerSpec } from '../server-spec.js'
import { traceSampling } from '../session/sampling-trace.js'
import { type Session, sessionInternals } from '../session/session.js'
import { traceServerName } from '../session/trace.js'
import type { TransportKind } from '../session/types.js'
import type { EraCache } from './era-cache.js'
import type { ConnectOptions } from './options.js'

const defaultClientInfo = { name: 'mcp-kit', version: '0.1.0' }

export interface Attempt {
  transport: MessageTransport
  kind: TransportKind
}

export interface Initialized {
  connection: Connection
  negotiated: Negotiated
  closed: Promise<void>
  /** Set once the session exists: list changes and refusals reach it. */
  session: { current?: Session }
}

export async function initialize(
  attempt: Attempt,
  server: ServerSpec,
  options: ConnectOptions,
  timeoutMs: number,
  eraCache: EraCache,
): Promise<Initialized> {
  // Set before negotiating, so a list_changed arriving early is not lost.
  const session: { current?: Session } = {}
  let resolveClosed: () => void = () => {}
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve
  })
  const onLog = options.onLog
  // Questions outside a call (2025-11-25 over stdio, or unrelated): traced as the session's.
  const input = traceSampling(
    options.input,
    { onTrace: options.onTrace, redactTraceArguments: options.redactTraceArguments ?? false },
    traceServerName(server),
  )
  const connection = new Connection(attempt.transport, {
    onClose: () => resolveClosed(),
    ...(options.onMessage === undefined ? {} : { onMessage: options.onMessage }),
    onError: (error) => options.onDiagnostic?.(`transport: ${error.message}`),
    onNotification: (method, params) => {
      if (method === 'notifications/message' && onLog && params)
        onLog(params as LoggingMessageNotification['params'])
      else if (session.current) sessionInternals.receiveNotification(session.current, method, params)
    },
    // 2025-11-25 server-to-client requests: the same answers as 2026 input rounds.
    onRequest: async (method, params) => {
      try {
        return await answerInput(
          input,
          { method, params },
          { during: undefined, signal: options.signal ?? new AbortController().signal },
          options.inputTimeoutMs ?? options.callTimeoutMs ?? 60_000,
        )
      } catch (error) {
        if ((ClientError.isInstance(error) && error.code === 'input_required') || isInputTimeout(error))
          if (session.current) sessionInternals.failPending(session.current, error)
        throw error
      }
    },
  })
  await connection.start()
  const negotiated = await negotiate(connection, attempt.transport as never, {
    choice: options.protocol ?? 'auto',
    clientInfo: options.clientInfo ?? defaultClientInfo,
    capabilities:
      options.experimentalCapabilities === undefined
        ? capabilitiesOf(input)
        : { ...capabilitiesOf(input), experimental: options.experimentalCapabilities },
    timeoutMs,
    // A server that does not answer the probe is taken for a 2025 one that ignores unknown
    // requests, after at most half the connect limit (stdio: 10 s), so initialize gets the rest.
    probeTimeoutMs: Math.min(
      attempt.kind === 'stdio' ? (options.probeTimeoutMs ?? 10_000) : timeoutMs,
      timeoutMs / 2,
    ),
    signal: options.signal,
    remembered:
      options.protocol === undefined || options.protocol === 'auto' ? eraCache.get(server) : undefined,
    onDiagnostic: options.onDiagnostic,
  })
  // A stdio server that ignores the probe is a 2025 one (remembered, so it is not waited for
  // again); an HTTP server that did not answer it in time may only have been slow.
  const remember = !(negotiated.guessed === true && attempt.kind !== 'stdio')
  if ((options.protocol === undefined || options.protocol === 'auto') && remember)
    eraCache.set(server, negotiated.era)
  return { connection, negotiated, closed, session }
}
