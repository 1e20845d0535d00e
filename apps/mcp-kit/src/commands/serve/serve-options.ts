// The flags of `mcp-kit serve`, checked and turned into the HTTP server's options: addresses,
// the bearer token (flag, file or environment), OAuth (--auth-issuer), session and connection
// limits, timeouts. Each mistake is a usage error (exit 2) naming the flag.

import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { HttpServerOptions, RuntimeOptions } from '@mcp-kit/server'
import { parseByteSize } from '../../base/byte-size.js'
import { CliError } from '../../base/errors.js'
import type { Io } from '../../base/io.js'
import { writeDiagnostic } from '../../output/diagnostics.js'

export interface ServeArguments {
  /** A registry module and/or upstream servers (@profile, mcp+…://, name=<reference>). */
  targets?: string[]
  module?: string
  config?: string
  /** REST APIs as tools: `SPEC` or `name=SPEC` (an OpenAPI document's URL or file). */
  openapi?: string[]
  openapiBase?: string
  openapiHeader?: string[]
  openapiForceHeader?: string[]
  openapiInclude?: string[]
  openapiExclude?: string[]
  /** Seconds one request to the API may take. */
  openapiTimeout?: number
  /** The largest answer read from the API, e.g. `4MiB`. */
  openapiMaxResponse?: string
  openapiStrictResponses?: boolean
  openapiAllowRemoteRefs?: boolean
  /** The directory `@name` file arguments are read from. */
  openapiFiles?: string
  openapiIncludeTag?: string[]
  openapiExcludeTag?: string[]
  openapiIncludePath?: string[]
  openapiExcludePath?: string[]
  openapiOutputSchemas?: string
  /** What the OpenAPI documents are served as (set by runServe, for messages). */
  apiNames?: string[]
  store?: string
  storePrefix?: string
  storeCa?: string
  requestStateKeyFile?: string
  taskKeep?: number
  taskAfter?: number
  taskLease?: number
  taskMax?: number
  eager?: boolean
  idleStop?: number
  verbose?: boolean
  stdio?: boolean
  port?: number
  host?: string
  token?: string
  authIssuer?: string
  authAudience?: string[]
  authScope?: string[]
  publicUrl?: string
  maxSessionsPerClient?: number
  sessionLifetime?: number
  maxConnections?: number
  headersTimeout?: number
  bodyTimeout?: number
  tokenFile?: string
  stateless?: boolean
  allowOrigin?: string[]
  allowHost?: string[]
  maxSessions?: number
  sessionIdle?: number
  bodyLimit?: string
  shutdownGrace?: number
  trace?: string
  'trace-redact-args'?: boolean
  /** The operator's controls (tokens, policy, limits, admin) in a file of their own. */
  policy?: string
  /** Reload --config and --policy when they change (SIGHUP reloads too). */
  watch?: boolean
  audit?: string
  auditArguments?: boolean
  auditResults?: boolean
  auditMaxSize?: string
  auditKeep?: number
  metrics?: boolean
  otlp?: string
}

export const httpOnlyFlags: Array<[keyof ServeArguments, string]> = [
  ['host', '--host'],
  ['token', '--token'],
  ['authIssuer', '--auth-issuer'],
  ['authAudience', '--auth-audience'],
  ['authScope', '--auth-scope'],
  ['publicUrl', '--public-url'],
  ['maxSessionsPerClient', '--max-sessions-per-client'],
  ['sessionLifetime', '--session-lifetime'],
  ['maxConnections', '--max-connections'],
  ['headersTimeout', '--headers-timeout'],
  ['bodyTimeout', '--body-timeout'],
  ['tokenFile', '--token-file'],
  ['stateless', '--stateless'],
  ['allowOrigin', '--allow-origin'],
  ['allowHost', '--allow-host'],
  ['maxSessions', '--max-sessions'],
  ['sessionIdle', '--session-idle'],
  ['bodyLimit', '--body-limit'],
  ['store', '--store'],
  ['storePrefix', '--store-prefix'],
  ['storeCa', '--store-ca'],
  ['requestStateKeyFile', '--request-state-key-file'],
  ['metrics', '--metrics'],
]

export function positiveNumber(value: number | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined
  if (!Number.isFinite(value) || value <= 0) throw new CliError('usage', `${flag} must be a number > 0`)
  return value
}

function wholeNumber(value: number | undefined, flag: string, allowZero = false): number | undefined {
  if (value === undefined) return undefined
  if (!Number.isInteger(value) || value < (allowZero ? 0 : 1)) {
    throw new CliError('usage', `${flag} must be a whole number${allowZero ? ' ≥ 0' : ' > 0'}`)
  }
  return value
}

function seconds(value: number | undefined, flag: string, allowZero = false): number | undefined {
  if (value === undefined) return undefined
  if (!Number.isFinite(value) || value < 0 || (value === 0 && !allowZero)) {
    throw new CliError('usage', `${flag} must be a number of seconds${allowZero ? ' ≥ 0' : ' > 0'}`)
  }
  return value * 1000
}

function httpUrl(value: string, flag: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new CliError('usage', `${flag} must be a URL (got ${JSON.stringify(value)})`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new CliError('usage', `${flag} must be an http(s) URL (got ${JSON.stringify(value)})`)
  }
  return url.href
}

/** OAuth (`--auth-issuer`): the resource server's settings, checked. */
function authOptions(args: ServeArguments): HttpServerOptions['auth'] {
  if (args.authIssuer === undefined) {
    const stray = (['authAudience', 'authScope'] as const).find((key) => args[key] !== undefined)
    if (stray !== undefined) {
      throw new CliError(
        'usage',
        `--${stray === 'authAudience' ? 'auth-audience' : 'auth-scope'} needs --auth-issuer`,
      )
    }
    return undefined
  }
  httpUrl(args.authIssuer, '--auth-issuer')
  return {
    // The issuer exactly as given: tokens name it so (a trailing slash or not matters).
    issuer: args.authIssuer.trim(),
    resource: args.publicUrl === undefined ? undefined : httpUrl(args.publicUrl, '--public-url'),
    audience: args.authAudience,
    requiredScopes: args.authScope,
  }
}

/**
 * The token in `--token-file`: the file's text less one trailing newline (editors and `echo` add
 * one). An empty token would let anyone in, so an empty file is refused rather than ignored.
 */
function readTokenFile(path: string, io: Io): string {
  let text: string
  try {
    text = readFileSync(resolve(io.cwd, path), 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const reason = code === 'ENOENT' ? 'no such file' : ((error as Error).message ?? String(error))
    throw new CliError('usage', `--token-file ${path}: cannot read it: ${reason}`)
  }
  const token = text.replace(/\r?\n$/, '')
  if (token === '') throw new CliError('usage', `--token-file ${path} is empty`)
  return token
}

/**
 * `--task-keep`: how long a finished task (its result too) stays readable; `--task-after`: calls
 * of tools that do not declare `taskSupport` become tasks after that long; `--task-lease`: how
 * long the instance running a task vouches for it between renewals (on a shared store, the time
 * after which a task whose instance died is failed); `--task-max`: the most tasks running in
 * this instance at once. Both transports.
 */
export function taskOptions(args: ServeArguments): HttpServerOptions['tasks'] {
  const keepMs = seconds(args.taskKeep, '--task-keep', true)
  const afterMs = seconds(args.taskAfter, '--task-after', true)
  const leaseMs = seconds(args.taskLease, '--task-lease')
  // Renewals come every third of the lease; under a second the lease would outrun a busy loop.
  if (leaseMs !== undefined && leaseMs < 1000)
    throw new CliError('usage', '--task-lease must be at least 1 second')
  const maxRunning = wholeNumber(args.taskMax, '--task-max')
  if (keepMs === undefined && afterMs === undefined && leaseMs === undefined && maxRunning === undefined)
    return undefined
  return { keepMs, afterMs, leaseMs, maxRunning }
}

export function httpOptions(args: ServeArguments, io: Io, runtimeOptions: RuntimeOptions): HttpServerOptions {
  const port = args.port as number
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new CliError('usage', `--port must be an integer from 0 to 65535 (got ${String(args.port)})`)
  }
  const token =
    args.token ??
    (args.tokenFile === undefined ? undefined : readTokenFile(args.tokenFile, io)) ??
    (io.env.MCP_KIT_TOKEN === '' ? undefined : io.env.MCP_KIT_TOKEN)
  if (token !== undefined && !/^[\x21-\x7e]+$/.test(token)) {
    throw new CliError('usage', 'the token must be printable ASCII without spaces')
  }
  let bodyLimitBytes: number | undefined
  if (args.bodyLimit !== undefined) {
    bodyLimitBytes = parseByteSize(args.bodyLimit)
    if (bodyLimitBytes === undefined) {
      throw new CliError(
        'usage',
        `--body-limit: cannot read ${JSON.stringify(args.bodyLimit)}; say e.g. 4MiB or 65536`,
      )
    }
  }
  const maxSessions = positiveNumber(args.maxSessions, '--max-sessions')
  if (maxSessions !== undefined && !Number.isInteger(maxSessions)) {
    throw new CliError('usage', '--max-sessions must be a whole number')
  }
  const sessionIdle = positiveNumber(args.sessionIdle, '--session-idle')
  if (args.publicUrl !== undefined && args.authIssuer === undefined) {
    throw new CliError('usage', '--public-url is the OAuth resource: it needs --auth-issuer')
  }
  const star = (values: string[] | undefined): string[] | '*' | undefined =>
    values?.includes('*') ? '*' : values
  return {
    ...runtimeOptions,
    port,
    host: args.host,
    token,
    stateless: args.stateless === true,
    allowedOrigins: star(args.allowOrigin),
    allowedHosts: star(args.allowHost),
    maxSessions,
    sessionIdleMs: sessionIdle === undefined ? undefined : sessionIdle * 1000,
    maxSessionsPerClient: wholeNumber(args.maxSessionsPerClient, '--max-sessions-per-client'),
    sessionMaxLifetimeMs: seconds(args.sessionLifetime, '--session-lifetime', true),
    maxConnections: wholeNumber(args.maxConnections, '--max-connections', true),
    headersTimeoutMs: seconds(args.headersTimeout, '--headers-timeout'),
    bodyTimeoutMs: seconds(args.bodyTimeout, '--body-timeout', true),
    auth: authOptions(args),
    bodyLimitBytes,
    tasks: taskOptions(args),
    // Messages of failed requests can quote what a client sent: sanitized like a server's words.
    onError: (error) => writeDiagnostic(io, `server error: ${error.message}`),
  }
}
