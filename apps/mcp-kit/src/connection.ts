// Flags every server-facing command shares (timeouts, headers, environment, traces, verbosity)
// and turning them into a connected session.

import { appendFileSync } from 'node:fs'
import type { ConnectOptions, Session } from '@mcp-kit/client'
import type { ResolvedReference } from '@mcp-kit/profiles'
import type { Options } from 'yargs'
import { CliError, isKitError } from './errors.js'
import type { Io } from './io.js'
import { parseByteSize } from './sizes.js'

export const connectionFlags = {
  timeout: {
    type: 'number',
    describe: 'Seconds to wait for each call (reset by progress)',
    default: 60,
    group: 'Connection:',
  },
  'connect-timeout': {
    type: 'number',
    describe: 'Seconds to wait for launch + initialize',
    default: 30,
    group: 'Connection:',
  },
  'max-time': { type: 'number', describe: 'Seconds for the whole command', group: 'Connection:' },
  header: {
    type: 'string',
    array: true,
    describe: "HTTP header 'Name: value' (repeatable)",
    group: 'Connection:',
  },
  env: {
    type: 'string',
    array: true,
    describe: 'NAME=value for a stdio server (repeatable)',
    group: 'Connection:',
  },
  'pass-env': {
    type: 'string',
    array: true,
    describe: 'Pass NAME or GLOB* from this environment to a stdio server',
    group: 'Connection:',
  },
  'max-message-size': {
    type: 'string',
    describe: 'Largest message accepted from a stdio server (e.g. 16MiB)',
    default: '16MiB',
    group: 'Connection:',
  },
  trace: {
    type: 'string',
    describe: 'Append one NDJSON trace entry per call to this file',
    group: 'Output:',
  },
  'trace-redact-args': {
    type: 'boolean',
    describe: 'Write argument names but not values to the trace',
    group: 'Output:',
  },
  verbose: {
    type: 'boolean',
    alias: 'v',
    describe: "Show the server's stderr and diagnostics",
    group: 'Output:',
  },
  quiet: { type: 'boolean', alias: 'q', describe: 'Show nothing but data and errors', group: 'Output:' },
} as const satisfies Record<string, Options>

export interface ConnectionArguments {
  timeout: number
  'connect-timeout': number
  'max-time'?: number
  header?: string[]
  env?: string[]
  'pass-env'?: string[]
  'max-message-size': string
  trace?: string
  'trace-redact-args'?: boolean
  verbose?: boolean
  quiet?: boolean
}

function parseHeaders(values: readonly string[]): Record<string, string> {
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

/** Prefixes diagnostics the way every command does: "mcp-kit: …". */
export function diagnostics(io: Io, args: Pick<ConnectionArguments, 'verbose' | 'quiet'>) {
  return {
    verbose: (message: string) => {
      if (args.verbose) io.stderr.write(`mcp-kit: ${message}\n`)
    },
    warn: (message: string) => {
      if (!args.quiet) io.stderr.write(`mcp-kit: warning: ${message}\n`)
    },
  }
}

export function connectOptions(
  args: ConnectionArguments,
  io: Io,
  extra: Partial<ConnectOptions> = {},
): ConnectOptions {
  const say = diagnostics(io, args)
  const options: ConnectOptions = {
    connectTimeoutMs: seconds(args['connect-timeout'], '--connect-timeout'),
    callTimeoutMs: seconds(args.timeout, '--timeout'),
    totalTimeoutMs: seconds(args['max-time'], '--max-time'),
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
          io.stderr.write(
            `mcp-kit: server log (${log.level}): ${typeof log.data === 'string' ? log.data : JSON.stringify(log.data)}\n`,
          )
      : undefined,
    onStderr: args.verbose ? (line) => io.stderr.write(`[server] ${line}\n`) : undefined,
    ...extra,
  }
  if (args.trace) {
    const file = args.trace
    options.onTrace = (entry) => {
      try {
        appendFileSync(file, `${JSON.stringify(entry)}\n`)
      } catch (error) {
        say.warn(`cannot write the trace file ${file}: ${(error as Error).message}`)
      }
    }
  }
  return options
}

/** Connects to a resolved reference's server. */
export async function openSession(
  resolved: ResolvedReference,
  args: ConnectionArguments,
  io: Io,
  extra: Partial<ConnectOptions> = {},
): Promise<Session> {
  const { connect } = await import('@mcp-kit/client')
  const options = connectOptions(args, io, { toolFilter: resolved.profile?.toolFilter ?? null, ...extra })
  if (args.verbose && resolved.server.transport === 'stdio') {
    const { buildEnvironment } = await import('@mcp-kit/client')
    const { inherited, passed, set } = buildEnvironment({
      parent: io.env,
      passEnv: options.passEnv,
      set: { ...resolved.server.env, ...options.env },
    })
    io.stderr.write(
      `mcp-kit: server environment: inherited ${inherited.join(', ') || '(none)'}; passed ${passed.join(', ') || '(none)'}; set ${set.join(', ') || '(none)'}\n`,
    )
  }
  try {
    return await connect(resolved.server, options)
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
    throw error
  }
}
