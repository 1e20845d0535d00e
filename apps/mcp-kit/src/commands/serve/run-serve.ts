// `mcp-kit serve`: loads a registry module (or the demo registry) and serves it over stdio or
// Streamable HTTP until stdin closes (stdio) or SIGINT/SIGTERM (both), then shuts down
// gracefully. Diagnostics go to stderr; stdout carries nothing but protocol (stdio).

import { createWriteStream } from 'node:fs'
import { resolve } from 'node:path'
import type { Gateway } from '@mcp-kit/gateway'
import type { RunningHttpServer, RuntimeOptions, Store, ToolRegistry } from '@mcp-kit/server'
import { CliError } from '../../base/errors.js'
import type { Io } from '../../base/io.js'
import { sanitizeLine } from '../../output/sanitize.js'
import { addApis, loadApisFor, servedAlone } from './openapi.js'
import { gatewayHttpOptions } from './operate/http-surface.js'
import { reloadOnChange } from './operate/reload.js'
import {
  httpOnlyFlags,
  httpOptions,
  positiveNumber,
  type ServeArguments,
  taskOptions,
} from './serve-options.js'
import { openStore, requestStateKey } from './store-options.js'
import { type StartedGateway, splitTargets, startGateway } from './upstreams.js'

export type { ServeArguments } from './serve-options.js'

/**
 * Imports `module` (ESM, CommonJS or TypeScript: registry-module.ts) and returns its registry:
 * the default export, or what a default-exported function returns. The function is given
 * @mcp-kit/server's exports, so a module needs no dependency of its own:
 * `export default ({ createToolRegistry }) => createToolRegistry()…`.
 */
export async function loadRegistry(module: string | undefined, io: Io): Promise<ToolRegistry> {
  if (module === undefined) return (await import('@mcp-kit/server/internal')).createDemoRegistry()
  const server = await import('@mcp-kit/server')
  const { importDefault } = await import('./registry-module.js')
  let value: unknown
  try {
    const exported = await importDefault(resolve(io.cwd, module), module)
    value =
      typeof exported === 'function' ? await (exported as (api: typeof server) => unknown)(server) : exported
  } catch (error) {
    if (error instanceof CliError) throw error
    throw new CliError('usage', `cannot load ${module}: ${(error as Error)?.message ?? String(error)}`, {
      cause: error,
    })
  }
  if (!server.isToolRegistry(value)) {
    throw new CliError(
      'usage',
      `${module}: the default export must be a registry from createToolRegistry() (or a function returning one)`,
    )
  }
  return value
}

/** What traces call the server: the module, a gateway, the APIs served, or the demo. */
function serverName(args: ServeArguments): string {
  if (args.module !== undefined) return args.module
  if (args.targets?.length || args.config) return 'mcp-kit gateway'
  const apis = args.apiNames ?? []
  return apis.length > 0 ? apis.join(', ') : 'mcp-kit demo'
}

/** Trace entries as NDJSON appended to `--trace FILE` (buffered; flushed when serving ends). */
function traceOptions(args: ServeArguments, io: Io): { options: RuntimeOptions; close: () => Promise<void> } {
  if (args.trace === undefined) return { options: {}, close: async () => {} }
  const path = resolve(io.cwd, args.trace)
  const file = createWriteStream(path, { flags: 'a' })
  let failed = false
  file.on('error', (error) => {
    if (!failed) io.stderr.write(`mcp-kit: warning: cannot write the trace file ${path}: ${error.message}\n`)
    failed = true
  })
  return {
    options: {
      serverName: serverName(args),
      redactTraceArguments: args['trace-redact-args'] === true,
      onTrace: (entry) => {
        if (!failed) file.write(`${JSON.stringify(entry)}\n`)
      },
    },
    close: () => new Promise<void>((resolveClose) => file.end(() => resolveClose())),
  }
}

const loopback = new Set(['127.0.0.1', 'localhost', '::1', '[::1]'])

async function serveHttp(
  registry: ToolRegistry,
  args: ServeArguments,
  io: Io,
  graceMs: number,
  runtimeOptions: RuntimeOptions,
  started: StartedGateway | undefined,
  store: Store | undefined,
): Promise<number> {
  const options = httpOptions(args, io, runtimeOptions)
  const gateway = started?.gateway
  if (started !== undefined) {
    const gatewayOnly = started.gateway
    options.health = () => ({ upstreams: gatewayOnly.health() })
    const named = (started.live.current?.tokens.length ?? 0) > 0
    if (named && (options.token !== undefined || options.auth !== undefined))
      throw new CliError(
        'usage',
        'the tokens of the gateway controls replace --token (and cannot go with --auth-issuer): use one',
      )
    const credentials = named || options.token !== undefined || options.auth !== undefined
    Object.assign(options, await gatewayHttpOptions(gatewayOnly, started.live, credentials))
  }
  const stateKey = requestStateKey(args, io)
  if (stateKey !== undefined) options.stateKey = stateKey
  if (store !== undefined) options.store = store
  return await listenAndServe(registry, args, io, graceMs, options, gateway, (running) => {
    if (started !== undefined) started.sessions.read = () => running.handler.stats().sessions
  })
}

async function listenAndServe(
  registry: ToolRegistry,
  args: ServeArguments,
  io: Io,
  graceMs: number,
  options: ReturnType<typeof httpOptions>,
  gateway: Gateway | undefined,
  onListening: (running: RunningHttpServer) => void = () => {},
): Promise<number> {
  const { startHttpServer } = await import('@mcp-kit/server')
  let running: Awaited<ReturnType<typeof startHttpServer>>
  try {
    running = await startHttpServer(registry, options)
  } catch (error) {
    if (options.auth !== undefined && /authorization server/.test((error as Error).message ?? '')) {
      // Without the issuer's keys no token could be checked: refuse to start rather than serve open.
      throw new CliError('connect_failed', (error as Error).message, { cause: error })
    }
    const code = (error as NodeJS.ErrnoException).code
    const reason =
      code === 'EADDRINUSE'
        ? `port ${options.port} is already in use`
        : code === 'EACCES'
          ? `not allowed to listen on port ${options.port}`
          : ((error as Error).message ?? String(error))
    throw new CliError(
      'usage',
      `cannot listen on ${options.host ?? '127.0.0.1'}:${options.port}: ${reason}`,
      {
        cause: error,
      },
    )
  }
  onListening(running)
  const notes = [
    options.stateless ? 'stateless' : undefined,
    options.token === undefined ? undefined : 'bearer token required',
    options.verifyToken === undefined ? undefined : 'named tokens required',
    options.auth === undefined ? undefined : `OAuth tokens from ${options.auth.issuer} required`,
    options.store === undefined ? undefined : `state shared on ${options.store.kind}`,
  ].filter((note) => note !== undefined)
  io.stderr.write(
    `mcp-kit: serving ${describeServed(args, gateway)} at ${running.url}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}\n`,
  )
  const open = options.token === undefined && options.auth === undefined && options.verifyToken === undefined
  if (!loopback.has(running.host) && open) {
    io.stderr.write(
      `mcp-kit: warning: listening on ${running.host} without --token or --auth-issuer: anyone who can reach it can call these tools\n`,
    )
  }
  await new Promise<void>((resolveStop) => {
    if (io.signal.aborted) return resolveStop()
    io.signal.addEventListener('abort', () => resolveStop(), { once: true })
  })
  const { inFlight } = running.handler.stats()
  io.stderr.write(
    inFlight > 0
      ? `mcp-kit: shutting down: waiting up to ${graceMs / 1000} s for ${inFlight} call${inFlight === 1 ? '' : 's'} in flight\n`
      : 'mcp-kit: shutting down\n',
  )
  await running.close({ graceMs })
  return 0
}

function describeServed(args: ServeArguments, gateway: Gateway | undefined): string {
  const apis = args.apiNames ?? []
  if (gateway === undefined && apis.length > 0) {
    return `${args.module === undefined ? '' : `${args.module} and `}${apis.map((name) => `the API ${name}`).join(', ')}`
  }
  if (gateway === undefined) return args.module ?? 'the demo registry'
  const names = [...gateway.upstreams.keys(), ...apis].join(', ')
  return `${args.module === undefined ? '' : `${args.module} and `}a gateway to ${names}`
}

export async function runServe(args: ServeArguments, io: Io): Promise<number> {
  const graceMs = (positiveNumber(args.shutdownGrace, '--shutdown-grace') ?? 10) * 1000
  if (args.port === undefined) {
    const misplaced = httpOnlyFlags
      .filter(([key]) => args[key] !== undefined && args[key] !== false)
      .map(([, flag]) => flag)
    if (misplaced.length > 0) {
      throw new CliError('usage', `${misplaced.join(', ')} only apply to HTTP: add --port N`)
    }
  }
  const { module, servers } = splitTargets(args.targets ?? [])
  args.module = module
  const gatewayWanted = servers.length > 0 || args.config !== undefined
  if (!gatewayWanted) {
    const stray = (['eager', 'idleStop'] as const).find((key) => args[key] !== undefined)
    if (stray !== undefined) {
      throw new CliError(
        'usage',
        `--${stray === 'eager' ? 'eager' : 'idle-stop'} applies to upstream servers: name some, or --config`,
      )
    }
  }
  const apis = await loadApisFor(args, io)
  const alone = servedAlone(apis, module !== undefined || gatewayWanted)
  const registry =
    module === undefined && (gatewayWanted || apis.apis.length > 0)
      ? (await import('@mcp-kit/server/internal')).createToolRegistry()
      : await loadRegistry(module, io)
  args.apiNames = await addApis(registry, apis, alone, servers, io, args.authIssuer !== undefined)
  const trace = traceOptions(args, io)
  if (!gatewayWanted) refuseGatewayOnlyFlags(args)
  const store = args.port === undefined ? undefined : await openStore(args, io)
  let started: StartedGateway | undefined
  let stopReloading = () => {}
  try {
    started = gatewayWanted ? await startGateway(registry, servers, args, io, store) : undefined
    if (started !== undefined) stopReloading = reloadFor(started, args, io)
    if (args.port !== undefined)
      return await serveHttp(registry, args, io, graceMs, trace.options, started, store)
    if (args.stdio !== true && (io.stdin as { isTTY?: boolean }).isTTY === true) {
      io.stderr.write(
        'mcp-kit: serving MCP over stdio: waiting for a client on stdin (use --port N for HTTP, Ctrl-D to stop)\n',
      )
    }
    const { serveStdio } = await import('@mcp-kit/server/internal')
    await serveStdio(registry, {
      ...trace.options,
      stdin: io.stdin,
      stdout: io.stdout,
      stderr: io.stderr,
      signal: io.signal,
      shutdownGraceMs: graceMs,
      tasks: taskOptions(args),
    })
    return 0
  } finally {
    stopReloading()
    await started?.gateway.close()
    await trace.close()
    await store?.close()
  }
}

/** SIGHUP (and with --watch, file changes) reloads the gateway's config; a bad one is refused. */
function reloadFor(started: StartedGateway, args: ServeArguments, io: Io): () => void {
  const files = [args.config, args.policy]
    .filter((file): file is string => file !== undefined)
    .map((file) => resolve(io.cwd, file))
  if (args.watch === true && files.length === 0)
    throw new CliError('usage', '--watch reloads --config or --policy: give one')
  return reloadOnChange({
    files,
    watch: args.watch === true,
    signal: io.signal,
    async reload(reason) {
      try {
        const changes = await started.reload()
        const said = (['added', 'removed', 'changed'] as const)
          .filter((kind) => changes[kind].length > 0)
          .map((kind) => `${kind} ${changes[kind].map(sanitizeLine).join(', ')}`)
        io.stderr.write(`mcp-kit: reloaded (${reason})${said.length > 0 ? `: ${said.join('; ')}` : ''}\n`)
      } catch (error) {
        io.stderr.write(
          `mcp-kit: reload refused (${reason}): ${sanitizeLine((error as Error).message ?? String(error))}; the running config stays\n`,
        )
      }
    },
  })
}

/** Flags that only make sense for a gateway. */
function refuseGatewayOnlyFlags(args: ServeArguments): void {
  const flags: Array<[keyof ServeArguments, string]> = [
    ['policy', '--policy'],
    ['watch', '--watch'],
    ['audit', '--audit'],
    ['metrics', '--metrics'],
    ['otlp', '--otlp'],
  ]
  const stray = flags.find(([key]) => args[key] !== undefined && args[key] !== false)
  if (stray !== undefined)
    throw new CliError('usage', `${stray[1]} applies to a gateway: name upstream servers, or --config`)
}
