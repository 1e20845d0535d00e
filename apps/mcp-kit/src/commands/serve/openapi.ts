// `mcp-kit serve --openapi SPEC`: a REST API's operations as tools (@mcp-kit/openapi). Alone (one
// unnamed document, nothing else served) the tools keep their names; beside a registry module,
// other servers or `--config`, or named (`--openapi name=SPEC`, or a config entry with
// "openapi"), they are merged into the served registry under the name's namespace
// (`name__operationId`), as a gateway's upstreams are. They run in this process: there is no
// upstream to start, restart or list.

import type { OpenApiDocument, OpenApiToolOptions } from '@mcp-kit/openapi'
import type { ToolRegistry } from '@mcp-kit/server'
import { CliError } from '../../cli/errors.js'
import type { Io } from '../../cli/io.js'
import type { ServeArguments } from './serve-options.js'

/** One API to offer: where its document is and how to reach it. */
export interface OpenApiTarget {
  /** Its namespace; undefined for a lone unnamed `--openapi SPEC`. */
  name: string | undefined
  spec: string
  options: OpenApiToolOptions
  /** Put before each tool name instead of `name__` (a config entry's `prefix`). */
  prefix?: string
  /** Where it was given, for messages. */
  from: string
}

export interface ServedApis {
  apis: LoadedApi[]
  /** The names of the upstreams they are served beside (a namespace must not be one of them). */
  upstreamNames: string[]
}

export interface LoadedApi extends OpenApiTarget {
  document: OpenApiDocument
}

const namedSpec = /^([A-Za-z0-9][A-Za-z0-9_-]*)=(.+)$/s

/** `Name: value` words of `--openapi-header`. */
function headersOf(words: readonly string[] | undefined): Record<string, string> | undefined {
  if (words === undefined || words.length === 0) return undefined
  const headers: Record<string, string> = {}
  for (const word of words) {
    const colon = word.indexOf(':')
    const name = colon === -1 ? '' : word.slice(0, colon).trim()
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new CliError('usage', `--openapi-header takes 'Name: value' (got a word without a header name)`)
    }
    headers[name] = word.slice(colon + 1).trim()
  }
  return headers
}

/** The `--openapi-*` settings, which apply to one document only, with their flags (for messages). */
const settingFlags = [
  ['openapiBase', '--openapi-base'],
  ['openapiHeader', '--openapi-header'],
  ['openapiInclude', '--openapi-include'],
  ['openapiExclude', '--openapi-exclude'],
  ['openapiIncludeTag', '--openapi-include-tag'],
  ['openapiExcludeTag', '--openapi-exclude-tag'],
  ['openapiIncludePath', '--openapi-include-path'],
  ['openapiExcludePath', '--openapi-exclude-path'],
  ['openapiOutputSchemas', '--openapi-output-schemas'],
] as const

/** Filter entries of the library (`tag:NAME`, `path:/prefix`) from the flags; undefined when none. */
function filterEntries(
  entries: readonly string[] | undefined,
  tags: readonly string[] | undefined,
  paths: readonly string[] | undefined,
): string[] | undefined {
  const all = [
    ...(entries ?? []),
    ...(tags ?? []).map((tag) => `tag:${tag}`),
    ...(paths ?? []).map((path) => {
      if (!path.startsWith('/'))
        throw new CliError(
          'usage',
          `--openapi-include-path and --openapi-exclude-path take a path that starts with '/' (got ${JSON.stringify(path)})`,
        )
      return `path:${path}`
    }),
  ]
  return entries === undefined && tags === undefined && paths === undefined ? undefined : all
}

/** The `--openapi` flags as targets; the `--openapi-*` settings apply to one document only. */
export function openApiTargets(args: ServeArguments): OpenApiTarget[] {
  const specs = args.openapi ?? []
  const settings = settingFlags.filter(([key]) => args[key] !== undefined)
  if (specs.length === 0) {
    if (settings.length > 0)
      throw new CliError(
        'usage',
        `${settings.map(([, flag]) => flag).join(', ')} ${settings.length === 1 ? 'needs' : 'need'} --openapi SPEC`,
      )
    return []
  }
  if (specs.length > 1 && settings.length > 0) {
    // A header or base meant for one API must never reach another's origin.
    throw new CliError(
      'usage',
      'with several --openapi documents, give each its base URL, headers and filters in a --config entry',
    )
  }
  return specs.map((word) => {
    const named = namedSpec.exec(word)
    const options: OpenApiToolOptions = {}
    if (args.openapiBase !== undefined) options.baseUrl = args.openapiBase
    const headers = headersOf(args.openapiHeader)
    if (headers !== undefined) options.headers = headers
    const include = filterEntries(args.openapiInclude, args.openapiIncludeTag, args.openapiIncludePath)
    if (include !== undefined) options.include = include
    const exclude = filterEntries(args.openapiExclude, args.openapiExcludeTag, args.openapiExcludePath)
    if (exclude !== undefined) options.exclude = exclude
    if (args.openapiOutputSchemas !== undefined) {
      options.outputSchemas = args.openapiOutputSchemas as NonNullable<OpenApiToolOptions['outputSchemas']>
    }
    return { name: named?.[1], spec: named?.[2] ?? word, options, from: `--openapi ${word}` }
  })
}

/**
 * `${NAME}` and `${secret:KEY}` in `--openapi-header` values, from the environment and the secret
 * store (`mcp-kit profile secret set KEY`), so a key need not be on the command line (ps shows it).
 */
async function fillHeaders(target: OpenApiTarget, io: Io): Promise<void> {
  const headers = target.options.headers
  if (headers === undefined || !Object.values(headers).some((value) => value.includes('${'))) return
  const { readSecrets } = await import('@mcp-kit/profiles')
  const { substituteString } = await import('@mcp-kit/profiles/internal')
  const secrets = Object.values(headers).some((value) => value.includes('${secret:'))
    ? await readSecrets({ env: io.env })
    : {}
  const variables: Record<string, string | undefined> = { ...io.env }
  for (const [key, value] of Object.entries(secrets)) variables[`secret:${key}`] = value
  target.options.headers = Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      substituteString(value, variables, { file: '--openapi-header', field: name }),
    ]),
  )
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
  const hint = from.startsWith('--config') ? '"baseUrl" in the entry' : '--openapi-base URL'
  const message = (openapi.message ?? '').replace('give the base URL of the API', `give ${hint}`)
  return new CliError(code, `${from}: ${message}`, { cause: error })
}

/** The `openapi` entries of `--config`, and the names of its other upstreams. */
async function configTargets(
  args: ServeArguments,
  io: Io,
): Promise<{ targets: OpenApiTarget[]; names: string[] }> {
  if (args.config === undefined) return { targets: [], names: [] }
  const { readGatewayConfig, ConfigError } = await import('@mcp-kit/gateway')
  let config: ReturnType<typeof readGatewayConfig>
  try {
    config = readGatewayConfig(args.config, { cwd: io.cwd, env: io.env })
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError('usage', `--config: ${error.message}`)
    throw error
  }
  const targets = config.apis.map((api): OpenApiTarget => {
    const { name, spec, prefix, credentials, ...options } = api
    const target: OpenApiTarget = { name, spec, options, from: `--config '${name}'` }
    if (credentials !== undefined)
      target.options.credentials = credentials as OpenApiToolOptions['credentials']
    if (prefix !== undefined) target.prefix = prefix
    return target
  })
  return { targets, names: config.upstreams.map((upstream) => upstream.name) }
}

/**
 * Reads the documents of `--openapi` and of `--config`'s `openapi` entries (failing the command,
 * exit 2 or 3, when one cannot be read).
 */
export async function loadApisFor(args: ServeArguments, io: Io): Promise<ServedApis> {
  const fromConfig = await configTargets(args, io)
  const flagged = openApiTargets(args)
  const targets = [...flagged, ...fromConfig.targets]
  if (targets.length === 0) return { apis: [], upstreamNames: [] }
  for (const target of flagged) await fillHeaders(target, io)
  const { loadOpenApi } = await import('@mcp-kit/openapi')
  const apis: LoadedApi[] = []
  for (const target of targets) {
    try {
      apis.push({ ...target, document: await loadOpenApi(target.spec, { cwd: io.cwd }) })
    } catch (error) {
      throw cliErrorOf(error, target.from)
    }
  }
  return { apis, upstreamNames: fromConfig.names }
}

/** True when one unnamed document is all there is to serve: its tools keep their own names. */
export function servedAlone(served: ServedApis, others: boolean): boolean {
  return served.apis.length === 1 && served.apis[0]?.name === undefined && !others
}

/**
 * Adds each API's tools to `registry` (under its namespace unless `alone`) and returns what they
 * are served as. A namespace may not be an upstream's name (`servers`: the server targets).
 * Credentials come from the environment: `MCP_KIT_OPENAPI_<SCHEME>`, for a named API
 * `MCP_KIT_OPENAPI_<NAME>_<SCHEME>` (see `credentialsFromEnvironment`).
 */
export async function addApis(
  registry: ToolRegistry,
  served: ServedApis,
  alone: boolean,
  servers: readonly string[],
  io: Io,
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
    const scope = api.name === undefined ? '' : `${api.name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_`
    try {
      const tools = openApiTools(api.document, {
        ...api.options,
        credentials: {
          ...credentialsFromEnvironment(api.document, io.env, `MCP_KIT_OPENAPI_${scope}`),
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
