// `mcp-kit serve --openapi SPEC`: a REST API's operations as tools (@mcp-kit/openapi). Alone (one
// unnamed document, nothing else served) the tools keep their names; beside a registry module,
// other servers or `--config`, or named (`--openapi name=SPEC`, or a config entry with
// "openapi"), they are merged into the served registry under the name's namespace
// (`name__operationId`), as a gateway's upstreams are. They run in this process: there is no
// upstream to start, restart or list. Credentials from the environment are bound to an API's
// name (`MCP_KIT_OPENAPI_<NAME>__<SCHEME>`): an unnamed document gets none, so no document can
// read another's.

import type { OpenApiDocument } from '@mcp-kit/openapi'
import type { ToolRegistry } from '@mcp-kit/server'
import { CliError } from '../../base/errors.js'
import type { Io } from '../../base/io.js'
import {
  configTargets,
  fillHeaders,
  namedSpec,
  type OpenApiTarget,
  openApiTargets,
} from './openapi-targets.js'
import type { ServeArguments } from './serve-options.js'

export type { OpenApiTarget } from './openapi-targets.js'

export interface ServedApis {
  apis: LoadedApi[]
  /** The names of the upstreams they are served beside (a namespace must not be one of them). */
  upstreamNames: string[]
}

export interface LoadedApi extends OpenApiTarget {
  document: OpenApiDocument
}

/** A namespace for an unnamed document served beside others: its title, else `openapi`. */
function derivedName(document: OpenApiDocument): string {
  const slug = document.title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 32)
    .replace(/-+$/, '')
  return slug === '' ? 'openapi' : slug
}

function cliErrorOf(error: unknown, from: string): unknown {
  const openapi = error as {
    name?: string
    code?: string
    message?: string
    details?: Record<string, unknown>
  }
  if (openapi?.name !== 'OpenApiError') return error
  const code = openapi.details?.unreachable === true ? 'connect_failed' : 'usage'
  const config = from.startsWith('--config')
  const message = (openapi.message ?? '')
    .replace(
      'give the base URL of the API',
      `give ${config ? '"baseUrl" in the entry' : '--openapi-base URL'}`,
    )
    .replace(
      'allow remote references to read it',
      `${config ? '"allowRemoteRefs": true in the entry' : '--openapi-allow-remote-refs'} reads it`,
    )
  return new CliError(code, `${from}: ${message}`, { cause: error })
}

/**
 * Reads the documents of `--openapi` and of `--config`'s `openapi` entries (failing the command,
 * exit 2 or 3, when one cannot be read).
 */
export async function loadApisFor(args: ServeArguments, io: Io): Promise<ServedApis> {
  const fromConfig = await configTargets(args, io)
  const flagged = openApiTargets(args, io.cwd)
  const targets = [...flagged, ...fromConfig.targets]
  if (targets.length === 0) return { apis: [], upstreamNames: [] }
  for (const target of flagged) await fillHeaders(target, io)
  checkVariableNames(targets)
  const { loadOpenApi } = await import('@mcp-kit/openapi')
  const apis: LoadedApi[] = []
  for (const target of targets) {
    try {
      const document = await loadOpenApi(target.spec, {
        cwd: io.cwd,
        signal: io.signal,
        allowRemoteRefs: target.allowRemoteRefs === true,
      })
      apis.push({ ...target, document })
    } catch (error) {
      // SIGTERM or Ctrl-C while a document loads: stop at once (the CLI says 'interrupted').
      if (io.signal.aborted) throw io.signal.reason
      throw cliErrorOf(error, target.from)
    }
  }
  return { apis, upstreamNames: fromConfig.names }
}

/** The word of an API's name in its variables (as `environmentVariable` makes it). */
function variableWord(name: string): string {
  return name
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
}

/** Two APIs whose names give the same variables (`my-api`, `my_api`) would share credentials: refused. */
function checkVariableNames(targets: readonly OpenApiTarget[]): void {
  const seen = new Map<string, OpenApiTarget>()
  for (const target of targets) {
    if (target.name === undefined) continue
    const word = variableWord(target.name)
    const other = seen.get(word)
    if (other !== undefined && other.name !== target.name) {
      throw new CliError(
        'usage',
        `${target.from}: the APIs '${other.name}' and '${target.name}' would read the same variables (MCP_KIT_OPENAPI_${word}__…): rename one`,
      )
    }
    seen.set(word, target)
  }
}

/** An unnamed document reads no variables: say so when some look meant for it. */
function warnUnnamed(api: LoadedApi, io: Io): void {
  const components = api.document.spec.components as { securitySchemes?: Record<string, unknown> } | undefined
  const unread = Object.keys(components?.securitySchemes ?? {})
    .map((scheme) => `MCP_KIT_OPENAPI_${variableWord(scheme)}`)
    .filter((variable) => io.env[variable] !== undefined && io.env[variable] !== '')
  if (unread.length === 0) return
  io.stderr.write(
    `mcp-kit: warning: ${unread.join(', ')} ${unread.length === 1 ? 'is' : 'are'} not read: an unnamed document gets no credentials from the environment; name it (--openapi NAME=SPEC) and set MCP_KIT_OPENAPI_<NAME>__<SCHEME>\n`,
  )
}

/** True when one unnamed document is all there is to serve: its tools keep their own names. */
export function servedAlone(served: ServedApis, others: boolean): boolean {
  return served.apis.length === 1 && served.apis[0]?.name === undefined && !others
}

/**
 * Adds each API's tools to `registry` (under its namespace unless `alone`) and returns what they
 * are served as. A namespace may not be an upstream's name (`servers`: the server targets).
 * A named API's credentials come from the environment, `MCP_KIT_OPENAPI_<NAME>__<SCHEME>` (see
 * `credentialsFromEnvironment`); `requireScopes` (--auth-issuer) gives each tool the OAuth scopes
 * its operation's security names.
 */
export async function addApis(
  registry: ToolRegistry,
  served: ServedApis,
  alone: boolean,
  servers: readonly string[],
  io: Io,
  requireScopes = false,
): Promise<string[]> {
  if (served.apis.length === 0) return []
  const { credentialsFromEnvironment, openApiTools } = await import('@mcp-kit/openapi')
  // Alone, the tools keep their names: the gateway's naming (and what it loads) is not needed.
  const naming = alone ? undefined : await import('@mcp-kit/gateway')
  const { nameFor } = servers.length === 0 ? { nameFor: undefined } : await import('./upstreams.js')
  const taken = new Set([
    ...served.upstreamNames,
    ...servers.map((target) => nameFor?.(target, namedSpec.exec(target)?.[2] ?? target) ?? target),
  ])
  const names: string[] = []
  for (const api of served.apis) {
    const name = alone ? undefined : (api.name ?? derivedName(api.document))
    if (name !== undefined && (taken.has(name) || names.includes(name))) {
      throw new CliError(
        'usage',
        `${api.from}: two upstreams are named '${name}': name one with ${name}2=SPEC`,
      )
    }
    const prefix =
      name === undefined || naming === undefined ? '' : (api.prefix ?? naming.defaultPrefix(name))
    if (api.name === undefined) warnUnnamed(api, io)
    try {
      const tools = openApiTools(api.document, {
        ...api.options,
        requireScopes,
        credentials: {
          ...(api.name === undefined ? {} : credentialsFromEnvironment(api.document, api.name, io.env)),
          ...api.options.credentials,
        },
      })
      registry.batch(() => {
        for (const tool of tools) {
          registry.tool({
            ...tool.definition,
            name:
              prefix === '' || naming === undefined ? tool.name : naming.namespacedName(prefix, tool.name),
          })
        }
      })
    } catch (error) {
      throw cliErrorOf(error, api.from)
    }
    names.push(name ?? (api.document.title || api.spec))
  }
  return names
}
