// `mcp-kit serve` as a gateway: the targets that are servers (profiles `@name`, references
// `mcp+…://`, `name=<reference>`) and the entries of `--config <mcpServers file>` (an
// `mcp+registry://` one resolved here, in its place) become the gateway's upstreams, beside the
// registry module if one is given. A profile brings its environment, tools filter, drift policy
// (its stored schemas) and OAuth client; its name is the namespace. HTTP upstreams use the logins
// of `mcp-kit auth login` (the user's credentials file).

import type {
  ConfigReference,
  ConfigResult,
  Gateway,
  GatewayEvent,
  GatewayOptions,
  UpstreamChanges,
  UpstreamOptions,
} from '@mcp-kit/gateway'
import type { Store, ToolRegistry } from '@mcp-kit/server'
import { CliError } from '../../base/errors.js'
import type { Io } from '../../base/io.js'
import { sanitizeLine } from '../../output/sanitize.js'
import type { RegistryArguments } from '../../registry/registry-flags.js'
import { resolveForCli } from '../../session/reference.js'
import { controlOptions, readOperatorControls } from './operate/controls.js'
import type { LiveControls } from './operate/http-surface.js'
import { observerOptions } from './operate/observers.js'
import type { ServeArguments } from './serve-options.js'

type GatewayArguments = ServeArguments & RegistryArguments

/** The registry flags of `serve`, for `mcp+registry://` targets and config entries. */
function registryArguments(args: GatewayArguments): RegistryArguments {
  const given: RegistryArguments = {}
  if (args.registry !== undefined) given.registry = args.registry
  if (args['registry-header'] !== undefined) given['registry-header'] = args['registry-header']
  return given
}

const namedTarget = /^([A-Za-z0-9][A-Za-z0-9_-]*)=(.+)$/s

/** True for a target that names a server rather than a registry module. */
function isServerTarget(target: string): boolean {
  return target.startsWith('@') || target.startsWith('mcp+') || namedTarget.test(target)
}

/** The registry module (at most one) and the server targets of `serve [targets..]`. */
export function splitTargets(targets: readonly string[]): { module: string | undefined; servers: string[] } {
  const modules = targets.filter((target) => !isServerTarget(target))
  if (modules.length > 1) {
    throw new CliError(
      'usage',
      `serve takes one registry module, got ${modules.length} (${modules.join(', ')}); servers are @profile, mcp+…:// or name=<reference>`,
    )
  }
  return { module: modules[0], servers: targets.filter(isServerTarget) }
}

/** The upstream's name: `name=` if given, the profile's name, else the package or host. */
export function nameFor(target: string, reference: string): string {
  const named = namedTarget.exec(target)
  if (named?.[1]) return named[1]
  if (reference.startsWith('@')) return reference.slice(1).split(/[/?]/)[0] ?? 'upstream'
  const withoutScheme = reference.replace(/^mcp\+[a-z]+:\/\//, '').split('?')[0] ?? ''
  const last = withoutScheme.split('/').filter(Boolean)
  const base = reference.startsWith('mcp+http')
    ? (last[0] ?? 'upstream').split(':')[0]
    : (last.at(-1) ?? 'upstream')
  const cleaned = (base ?? 'upstream')
    .replace(/\.(m?js|py)$/, '')
    .replace(/^server-/, '')
    .replace(/[^A-Za-z0-9_-]/g, '-')
  return cleaned === '' ? 'upstream' : cleaned
}

/** A target's upstream; `loginReferences` learns how to name a profile's to `mcp-kit auth login`. */
async function upstreamOf(
  target: string,
  args: GatewayArguments,
  io: Io,
  loginReferences: Map<string, string>,
): Promise<UpstreamOptions> {
  const reference = namedTarget.exec(target)?.[2] ?? target
  const resolved = await resolveForCli(reference, io, registryArguments(args))
  if (resolved.operation.kind !== 'inspect') {
    throw new CliError(
      'usage',
      `${target}: name a server, not a tool or resource, to serve it as an upstream`,
    )
  }
  const upstream: UpstreamOptions = { name: nameFor(target, reference), server: resolved.server }
  const profile = resolved.profile
  if (profile !== undefined) {
    loginReferences.set(upstream.name, `@${profile.location.name}`)
    const auth = profile.auth
    if (auth?.client_id !== undefined || auth?.scopes !== undefined) {
      // The client the login was made with (as `auth login @profile` does) refreshes it.
      upstream.oauth = {
        grant: 'authorization_code',
        clientId: auth.client_id,
        clientSecret: auth.client_id === undefined ? undefined : io.env.MCP_KIT_CLIENT_SECRET,
        scope: auth.scopes,
      }
    }
    if (profile.toolFilter !== null) upstream.tools = profile.toolFilter
    if (profile.schemaHash && profile.schemaValidation !== 'ignore') {
      const { loadProfileDocument, storedTools } = await import('@mcp-kit/profiles')
      const document = await loadProfileDocument(profile)
      upstream.drift = { policy: profile.schemaValidation, tools: storedTools(document.tools) as never }
    }
  }
  return upstream
}

/** A `--config` entry named by its registry entry: its inputs are the entry's `inputs`. */
async function referencedUpstream(
  entry: ConfigReference,
  args: GatewayArguments,
  io: Io,
): Promise<UpstreamOptions> {
  const resolved = await resolveForCli(entry.reference, io, {
    ...registryArguments(args),
    answers: entry.inputs,
    answerHint: (name) => `add "inputs": { "${name}": "…" } to '${entry.name}' in --config`,
  })
  if (entry.options.oauth !== undefined && resolved.server.transport !== 'http')
    throw new CliError(
      'usage',
      `--config: '${entry.name}'.oauth is for remote servers; ${sanitizeLine(entry.reference)} launches a command`,
    )
  return { name: entry.name, server: resolved.server, ...entry.options }
}

function describeEvent(event: GatewayEvent): string | undefined {
  const name = `upstream '${sanitizeLine(event.upstream)}'`
  switch (event.type) {
    case 'started':
      return `${name} started (${event.protocolVersion}${event.pid ? `, pid ${event.pid}` : ''}, ${event.ms} ms)`
    case 'stopped':
      return event.reason === 'idle' ? `${name} stopped (idle)` : undefined
    case 'failed':
      return `${name} failed: ${sanitizeLine(event.message)}${event.retryInMs === undefined ? '' : `; retrying in ${event.retryInMs / 1000} s`}`
    case 'skipped':
      return `${name}: ${sanitizeLine(event.what)} left out: ${sanitizeLine(event.reason)}`
    case 'drift':
      return `${name}: tool '${sanitizeLine(event.tool)}' changed: ${sanitizeLine(event.message)}${event.hidden ? ' (hidden: schema_validation is error)' : ''}`
    case 'refreshed':
      return `${name} offers ${event.tools} tools, ${event.resources} resources, ${event.prompts} prompts`
    case 'log':
      return `${name} log (${sanitizeLine(event.level)}): ${sanitizeLine(typeof event.data === 'string' ? event.data : JSON.stringify(event.data))}`
  }
}

function seconds(value: number | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined
  if (!Number.isFinite(value) || value <= 0)
    throw new CliError('usage', `${flag} must be a number of seconds > 0`)
  return value * 1000
}

/** The upstreams of `--config` and the server targets, and the config file as read. */
async function collectUpstreams(
  servers: readonly string[],
  args: GatewayArguments,
  io: Io,
  loginReferences: Map<string, string>,
): Promise<{ upstreams: UpstreamOptions[]; config: ConfigResult | undefined }> {
  const upstreams: UpstreamOptions[] = []
  let config: ConfigResult | undefined
  if (args.config !== undefined) {
    const { readGatewayConfig, ConfigError } = await import('@mcp-kit/gateway')
    try {
      config = readGatewayConfig(args.config, { cwd: io.cwd, env: io.env })
      upstreams.push(...config.upstreams)
      for (const skipped of config.skipped) {
        io.stderr.write(`mcp-kit: ${sanitizeLine(skipped.name)} left out of --config: ${skipped.reason}\n`)
      }
    } catch (error) {
      if (error instanceof ConfigError) throw new CliError('usage', `--config: ${error.message}`)
      throw error
    }
    // In the file's order: it decides which upstream owns an overlapping resource space.
    for (const entry of config.references)
      upstreams.splice(entry.index, 0, await referencedUpstream(entry, args, io))
  }
  for (const target of servers) upstreams.push(await upstreamOf(target, args, io, loginReferences))
  const taken = new Set<string>()
  for (const upstream of upstreams) {
    if (taken.has(upstream.name)) {
      throw new CliError(
        'usage',
        `two upstreams are named '${upstream.name}': name one with ${upstream.name}2=<reference>`,
      )
    }
    taken.add(upstream.name)
  }
  return { upstreams, config }
}

/** A started gateway, the operator's controls in force, and how to read its files again. */
export interface StartedGateway {
  gateway: Gateway
  live: LiveControls
  /** Where the sessions gauge reads the HTTP server's sessions, once it serves. */
  sessions: { read: () => number }
  /** Reads --config and --policy again and applies them; throws (changing nothing) when they cannot be used. */
  reload(): Promise<UpstreamChanges>
}

/**
 * Builds and starts the gateway over `registry` (the module's, or an empty one). Upstreams that
 * cannot start are reported and retried; a name collision is a usage error (exit 2).
 */
export async function startGateway(
  registry: ToolRegistry,
  servers: readonly string[],
  args: ServeArguments,
  io: Io,
  store: Store | undefined,
): Promise<StartedGateway> {
  const loginReferences = new Map<string, string>()
  const { upstreams, config } = await collectUpstreams(servers, args, io, loginReferences)
  const live: LiveControls = { current: await readOperatorControls(args, io, config) }
  const sessions = { read: () => 0 }
  const { createGateway, fileDiscoveryCache, defaultDiscoveryCacheDir, CollisionError } = await import(
    '@mcp-kit/gateway'
  )
  const { defaultCredentialsPath, fileCredentialStore, fileEraCache } = await import('@mcp-kit/client')
  const { defaultEraCachePath } = await import('@mcp-kit/client/internal')
  const options: GatewayOptions = {
    upstreams,
    credentials: fileCredentialStore(defaultCredentialsPath(io.env)),
    loginHint: (upstream) =>
      `mcp-kit auth login ${loginReferences.get(upstream.name) ?? (upstream.server.transport === 'http' ? `mcp+${upstream.server.url}` : upstream.name)}`,
    eager: args.eager === true,
    idleStopMs: seconds(args.idleStop, '--idle-stop'),
    cache: fileDiscoveryCache(defaultDiscoveryCacheDir(io.env)),
    connect: { cwd: io.cwd, parentEnv: io.env, eraCache: fileEraCache(defaultEraCachePath(io.env)) },
    onEvent: (event) => {
      const quiet = event.type === 'log' || event.type === 'refreshed' || event.type === 'started'
      if (quiet && args.verbose !== true) return
      const line = describeEvent(event)
      if (line !== undefined) io.stderr.write(`mcp-kit: ${line}\n`)
    },
    store,
    ...controlOptions(live.current),
    ...observerOptions(args, io, () => sessions.read()),
  }
  const gateway = createGateway(options, registry)
  try {
    await gateway.start()
  } catch (error) {
    if (error instanceof CollisionError) throw new CliError('usage', error.message)
    // --otlp without the OpenTelemetry packages (optional: they are not installed with mcp-kit).
    if (/needs the optional/.test((error as Error)?.message ?? ''))
      throw new CliError(
        'usage',
        (error as Error).message.replace('beside @mcp-kit/gateway', 'beside mcp-kit'),
      )
    throw error
  }
  return {
    gateway,
    live,
    sessions,
    async reload() {
      const next = await collectUpstreams(servers, args, io, loginReferences)
      const controls = await readOperatorControls(args, io, next.config)
      // The endpoint's kind of credentials is chosen at start: a reload changes which named
      // tokens there are, not whether there are any (that would open or close the endpoint).
      const named = (controls?.tokens.length ?? 0) > 0
      if (named !== (live.current?.tokens.length ?? 0) > 0)
        throw new CliError(
          'usage',
          `a reload cannot turn named tokens ${named ? 'on' : 'off'}: restart the gateway for that`,
        )
      const changes = await gateway.reconfigure({
        ...options,
        upstreams: next.upstreams,
        ...controlOptions(controls),
      })
      live.current = controls
      return changes
    },
  }
}
