// Turning the connection flags into a connected session: headers, environment, timeouts, traces
// and --verbose diagnostics become the client's ConnectOptions.

import { appendFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { ConnectOptions, Session } from '@mcp-kit/client'
import { protocolVersions } from '@mcp-kit/core'
import type { ResolvedReference } from '@mcp-kit/profiles'
import { parseByteSize } from '../base/byte-size.js'
import { CliError, isKitError } from '../base/errors.js'
import { exitCodeFor, exitCodes } from '../base/exit-codes.js'
import type { Io } from '../base/io.js'
import { diagnostics } from '../output/diagnostics.js'
import { inFlagTerms } from '../output/flag-wording.js'
import { sanitizeText } from '../output/sanitize.js'
import { clearStatus } from '../output/status.js'
import { recordingTarget } from '../record/record-flag.js'
import { samplingChoice } from '../sampling/sampling-choice.js'
import type { ConnectionArguments } from './connection-flags.js'
import { createInputHandler } from './input-handler.js'
import { messageTraceEntry } from './message-trace.js'
import { keepAliveFlag, keepAliveOf, warmCommands } from './warm-choice.js'

/** `--header 'Name: value'` flags as headers (a malformed one: exit 2). */
export function parseHeaders(values: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const value of values) {
    const colon = value.indexOf(':')
    const name = colon === -1 ? '' : value.slice(0, colon).trim()
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || /[\r\n\0]/.test(value)) {
      throw new CliError('usage', `--header ${JSON.stringify(value)}: expected 'Name: value'`)
    }
    headers[name] = value.slice(colon + 1).trim()
  }
  return headers
}

function parseEnvironment(values: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {}
  for (const value of values) {
    const equals = value.indexOf('=')
    const name = equals === -1 ? '' : value.slice(0, equals)
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || value.includes('\0')) {
      throw new CliError('usage', `--env ${JSON.stringify(value)}: expected NAME=value`)
    }
    env[name] = value.slice(equals + 1)
  }
  return env
}

export function parseSize(text: string, flag: string): number {
  const bytes = parseByteSize(text)
  if (bytes === undefined)
    throw new CliError('usage', `${flag} ${JSON.stringify(text)}: expected a size like 16MiB or 1048576`)
  return bytes
}

function seconds(value: number | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined
  if (!Number.isFinite(value) || value <= 0)
    throw new CliError('usage', `${flag} must be a positive number of seconds`)
  return Math.round(value * 1000)
}

export function connectOptions(
  args: ConnectionArguments,
  io: Io,
  extra: Partial<ConnectOptions> = {},
  /** The server as traces name it: with --trace-messages, each message is an entry too. */
  traceName?: string,
): ConnectOptions {
  const say = diagnostics(io, args)
  const protocol = args.protocol ?? 'auto'
  if (protocol !== 'auto' && !protocolVersions.includes(protocol)) {
    throw new CliError(
      'usage',
      `--protocol ${JSON.stringify(protocol)}: expected auto or one of ${protocolVersions.join(', ')}`,
    )
  }
  const options: ConnectOptions = {
    protocol,
    input: createInputHandler(args, io, undefined, samplingChoice(args)),
    connectTimeoutMs: seconds(args['connect-timeout'], '--connect-timeout'),
    callTimeoutMs: seconds(args.timeout, '--timeout'),
    totalTimeoutMs: seconds(args['max-time'], '--max-time'),
    inputTimeoutMs: args['input-timeout'] === 0 ? 0 : seconds(args['input-timeout'], '--input-timeout'),
    headers: parseHeaders(args.header ?? []),
    env: parseEnvironment(args.env ?? []),
    passEnv: args['pass-env'] ?? [],
    maxMessageBytes: parseSize(args['max-message-size'], '--max-message-size'),
    signal: io.signal,
    cwd: io.cwd,
    parentEnv: io.env,
    redactTraceArguments: args['trace-redact-args'] === true,
    onDiagnostic: say.verbose,
    onLog: args.verbose
      ? (log) =>
          say.verbose(
            `server log (${log.level}): ${typeof log.data === 'string' ? log.data : JSON.stringify(log.data)}`,
          )
      : undefined,
    // One line of the server's stderr: a tab is harmless, anything else is shown escaped.
    onStderr: args.verbose ? (line) => io.stderr.write(`[server] ${sanitizeText(line)}\n`) : undefined,
    ...extra,
  }
  if (args.trace) {
    // Relative to the command's directory (the warm-session daemon runs elsewhere).
    const file = resolve(io.cwd, args.trace)
    const append = (entry: unknown) => {
      try {
        appendFileSync(file, `${JSON.stringify(entry)}\n`)
      } catch (error) {
        say.warn(`cannot write the trace file ${file}: ${(error as Error).message}`)
      }
    }
    options.onTrace = (entry) =>
      append(
        entry.error_message === undefined
          ? entry
          : { ...entry, error_message: inFlagTerms(entry.error_message) },
      )
    if (args['trace-messages'] === true && extra.onMessage === undefined && traceName !== undefined) {
      options.onMessage = (direction, message) =>
        append(messageTraceEntry(direction, message, traceName, args['trace-redact-args'] === true))
    }
  }
  return options
}

/** How to name this server in a command line: `@profile`, or its naked reference. */
export function serverReference(resolved: ResolvedReference): string {
  if (resolved.reference.type === 'profile') return `@${resolved.reference.profile}`
  return resolved.server.transport === 'http' ? `mcp+${resolved.server.url}` : resolved.server.command
}

/**
 * OAuth for an HTTP server: the user's credentials file, the client settings of the flags or the
 * profile, and a login in the browser when a person is at a terminal (or when `interactive`).
 */
export async function oauthOptions(
  resolved: ResolvedReference,
  args: ConnectionArguments,
  io: Io,
  reference: string,
  interactive = io.stderrIsTTY,
): Promise<ConnectOptions['oauth']> {
  const { defaultCredentialsPath, fileCredentialStore, loopbackAuthorizer } = await import('@mcp-kit/client')
  const auth = resolved.profile?.auth
  const clientMetadataUrl = args['client-metadata-url'] ?? auth?.client_metadata_url
  if (clientMetadataUrl !== undefined && !clientMetadataUrl.startsWith('https://')) {
    throw new CliError('usage', '--client-metadata-url must be an https:// URL')
  }
  return {
    store: fileCredentialStore(defaultCredentialsPath(io.env)),
    clientId: args['client-id'] ?? auth?.client_id,
    clientSecret: args['client-secret'] ?? io.env.MCP_KIT_CLIENT_SECRET,
    clientMetadataUrl,
    scope: args.scope ?? auth?.scopes,
    loginHint: `mcp-kit auth login ${reference}`,
    authorizer: interactive
      ? loopbackAuthorizer({
          openBrowser: args.browser !== false,
          signal: io.signal,
          say: (message) => {
            // On the line of its own, not after "connecting to …".
            clearStatus(io)
            io.stderr.write(`mcp-kit: ${message}\n`)
          },
        })
      : undefined,
  }
}

/** Connects to a resolved reference's server (or, with a keep-alive in the daemon, to its warm session). */
export async function openSession(
  resolved: ResolvedReference,
  args: ConnectionArguments,
  io: Io,
  extra: Partial<ConnectOptions> = {},
): Promise<Session> {
  // Inside the daemon the rule says how long to keep the server. Outside it, a command connects
  // directly: warm/route.ts sent every command that should run warm to the daemon already.
  const keepAliveMs = io.warm === undefined ? undefined : keepAliveOf(args['keep-alive'], resolved.profile)
  if (
    io.warm === undefined &&
    args['keep-alive'] !== undefined &&
    keepAliveFlag(args['keep-alive']) !== undefined
  ) {
    diagnostics(io, args).warn(
      `--keep-alive keeps the servers of ${warmCommands.join(', ')}; this command's server ends with it`,
    )
  }
  const { connect, fileEraCache } = await import('@mcp-kit/client')
  const { defaultEraCachePath, traceServerName } = await import('@mcp-kit/client/internal')
  const oauth =
    resolved.server.transport === 'http' && extra.oauth === undefined
      ? await oauthOptions(resolved, args, io, serverReference(resolved))
      : undefined
  const options = connectOptions(
    args,
    io,
    {
      // Sampling as the flags say, else as the profile does.
      input: createInputHandler(args, io, undefined, samplingChoice(args, resolved.profile)),
      toolFilter: resolved.profile?.toolFilter ?? null,
      // The CLI remembers each server's era between runs (the library's default is memory only).
      eraCache: fileEraCache(defaultEraCachePath(io.env)),
      ...(oauth === undefined ? {} : { oauth }),
      ...extra,
    },
    args['trace-messages'] === true ? traceServerName(resolved.server) : undefined,
  )
  if (args.verbose && resolved.server.transport === 'stdio') {
    const { buildEnvironment } = await import('@mcp-kit/client/internal')
    const { inherited, passed, set } = buildEnvironment({
      parent: io.env,
      passEnv: options.passEnv,
      set: { ...resolved.server.env, ...options.env },
    })
    diagnostics(io, args).verbose(
      `server environment: inherited ${inherited.join(', ') || '(none)'}; passed ${passed.join(', ') || '(none)'}; set ${set.join(', ') || '(none)'}`,
    )
  }
  // `--record FILE` or an `mcp-kit record` around this command: its calls are kept (commands/record/).
  const recording = recordingTarget(args as { record?: unknown }, io.env)
  const recorder =
    recording === undefined
      ? undefined
      : (await import('../record/session-recorder.js')).startRecording(recording, resolved, args, io)
  if (recorder !== undefined && options.input !== undefined) options.input = recorder.input(options.input)
  try {
    if (keepAliveMs !== undefined && io.warm !== undefined) {
      const concurrency = (args as { concurrency?: number }).concurrency ?? resolved.profile?.concurrency ?? 1
      const warm = await io.warm.open({ resolved, options, keepAliveMs, concurrency })
      return recorder === undefined ? warm : recorder.wrap(warm)
    }
    const session = await connect(resolved.server, options)
    return recorder === undefined ? session : recorder.wrap(session)
  } catch (error) {
    // A profile's command that cannot start: say which profile file holds it.
    const profile = resolved.profile
    if (profile && isKitError(error) && error.code === 'launch_failed') {
      const where = `(profile @${profile.location.name}: ${profile.location.metaPath})`
      throw new CliError('launch_failed', `${error.message} ${where}`, {
        details: error.details,
        cause: error,
      })
    }
    throw asConnectFailure(error)
  }
}

/**
 * A session that could not be opened is a connect failure (exit 3) whatever broke the handshake: a
 * refused or invalid `initialize`, a protocol version we do not speak, a message too large. Failures
 * with exit codes of their own (a usage error 2, the connect limit 4, a login 7, Ctrl-C 130) keep them.
 */
function asConnectFailure(error: unknown): unknown {
  if (!isKitError(error) || exitCodeFor(error.code) !== exitCodes.failed) return error
  return new CliError('connect_failed', error.message, {
    details: { ...error.details, failure: error.code },
    cause: error,
  })
}
