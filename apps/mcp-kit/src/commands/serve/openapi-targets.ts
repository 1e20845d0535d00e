// Where `mcp-kit serve`'s REST APIs come from: the `--openapi` flags and their `--openapi-*`
// settings (which apply to one document only), and the `openapi` entries of `--config`, as
// targets with their tool options, checked (exit 2 for a mistake, naming the flag or entry).

import { resolve } from 'node:path'
import type { OpenApiToolOptions } from '@mcp-kit/openapi'
import { parseByteSize } from '../../base/byte-size.js'
import { CliError } from '../../base/errors.js'
import type { Io } from '../../base/io.js'
import type { ServeArguments } from './serve-options.js'

/** One API to offer: where its document is and how to reach it. */
export interface OpenApiTarget {
  /** Its namespace; undefined for a lone unnamed `--openapi SPEC`. */
  name: string | undefined
  spec: string
  options: OpenApiToolOptions
  /** Follow the document's `$ref`s to other hosts. */
  allowRemoteRefs?: boolean
  /** Put before each tool name instead of `name__` (a config entry's `prefix`). */
  prefix?: string
  /** Where it was given, for messages. */
  from: string
}

export const namedSpec = /^([A-Za-z0-9][A-Za-z0-9_-]*)=(.+)$/s

/** `Name: value` words of `--openapi-header` (or `--openapi-force-header`). */
function headersOf(words: readonly string[] | undefined, flag: string): Record<string, string> | undefined {
  if (words === undefined || words.length === 0) return undefined
  const headers: Record<string, string> = {}
  for (const word of words) {
    const colon = word.indexOf(':')
    const name = colon === -1 ? '' : word.slice(0, colon).trim()
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new CliError('usage', `${flag} takes 'Name: value' (got a word without a header name)`)
    }
    headers[name] = word.slice(colon + 1).trim()
  }
  return headers
}

const settingFlags = [
  ['openapiBase', '--openapi-base'],
  ['openapiHeader', '--openapi-header'],
  ['openapiForceHeader', '--openapi-force-header'],
  ['openapiInclude', '--openapi-include'],
  ['openapiExclude', '--openapi-exclude'],
  ['openapiTimeout', '--openapi-timeout'],
  ['openapiMaxResponse', '--openapi-max-response'],
  ['openapiStrictResponses', '--openapi-strict-responses'],
  ['openapiAllowRemoteRefs', '--openapi-allow-remote-refs'],
  ['openapiFiles', '--openapi-files'],
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
  if (entries === undefined && tags === undefined && paths === undefined) return undefined
  return [
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
}

/** Seconds → ms, checked (`--openapi-timeout`, a config entry's `timeout`). */
function timeoutMs(seconds: number, what: string): number {
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new CliError('usage', `${what} must be a number of seconds > 0`)
  return seconds * 1000
}

/** A size in bytes, checked (`--openapi-max-response`, a config entry's `maxResponse`). */
function byteSize(value: number | string, what: string): number {
  const bytes = typeof value === 'number' ? value : parseByteSize(value)
  if (bytes === undefined || !Number.isFinite(bytes) || bytes <= 0) {
    throw new CliError('usage', `${what}: cannot read ${JSON.stringify(value)}; say e.g. 4MiB or 65536`)
  }
  return bytes
}

/** The `--openapi` flags as targets; the `--openapi-*` settings apply to one document only. */
export function openApiTargets(args: ServeArguments, cwd = process.cwd()): OpenApiTarget[] {
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
    const headers = headersOf(args.openapiHeader, '--openapi-header')
    if (headers !== undefined) options.headers = headers
    const forced = headersOf(args.openapiForceHeader, '--openapi-force-header')
    if (forced !== undefined) options.forcedHeaders = forced
    const include = filterEntries(args.openapiInclude, args.openapiIncludeTag, args.openapiIncludePath)
    if (include !== undefined) options.include = include
    const exclude = filterEntries(args.openapiExclude, args.openapiExcludeTag, args.openapiExcludePath)
    if (exclude !== undefined) options.exclude = exclude
    if (args.openapiOutputSchemas !== undefined) {
      options.outputSchemas = args.openapiOutputSchemas as NonNullable<OpenApiToolOptions['outputSchemas']>
    }
    if (args.openapiTimeout !== undefined)
      options.timeoutMs = timeoutMs(args.openapiTimeout, '--openapi-timeout')
    if (args.openapiMaxResponse !== undefined)
      options.maxResponseBytes = byteSize(args.openapiMaxResponse, '--openapi-max-response')
    if (args.openapiStrictResponses === true) options.strictResponses = true
    if (args.openapiFiles !== undefined) options.filesDirectory = resolve(cwd, args.openapiFiles)
    const target: OpenApiTarget = {
      name: named?.[1],
      spec: named?.[2] ?? word,
      options,
      from: `--openapi ${word}`,
    }
    if (args.openapiAllowRemoteRefs === true) target.allowRemoteRefs = true
    return target
  })
}

/**
 * `${NAME}` and `${secret:KEY}` in `--openapi-header` values, from the environment and the secret
 * store (`mcp-kit profile secret set KEY`), so a key need not be on the command line (ps shows it).
 */
export async function fillHeaders(target: OpenApiTarget, io: Io): Promise<void> {
  const sets = (['headers', 'forcedHeaders'] as const).filter((key) =>
    Object.values(target.options[key] ?? {}).some((value) => value.includes('${')),
  )
  if (sets.length === 0) return
  const { readSecrets } = await import('@mcp-kit/profiles')
  const { substituteString } = await import('@mcp-kit/profiles/internal')
  const secrets = sets.some((key) =>
    Object.values(target.options[key] ?? {}).some((value) => value.includes('${secret:')),
  )
    ? await readSecrets({ env: io.env })
    : {}
  const variables: Record<string, string | undefined> = { ...io.env }
  for (const [key, value] of Object.entries(secrets)) variables[`secret:${key}`] = value
  for (const key of sets) {
    const flag = key === 'headers' ? '--openapi-header' : '--openapi-force-header'
    target.options[key] = Object.fromEntries(
      Object.entries(target.options[key] ?? {}).map(([name, value]) => [
        name,
        substituteString(value, variables, { file: flag, field: name }),
      ]),
    )
  }
}

/** The `openapi` entries of `--config`, and the names of its other upstreams. */
export async function configTargets(
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
    const { name, spec, prefix, credentials, timeout, maxResponse, allowRemoteRefs, files, ...options } = api
    const from = `--config '${name}'`
    const target: OpenApiTarget = { name, spec, options, from }
    if (credentials !== undefined)
      target.options.credentials = credentials as OpenApiToolOptions['credentials']
    if (timeout !== undefined) target.options.timeoutMs = timeoutMs(timeout, `${from}: timeout`)
    if (maxResponse !== undefined)
      target.options.maxResponseBytes = byteSize(maxResponse, `${from}: maxResponse`)
    if (files !== undefined) target.options.filesDirectory = files
    if (allowRemoteRefs === true) target.allowRemoteRefs = true
    if (prefix !== undefined) target.prefix = prefix
    return target
  })
  return { targets, names: config.upstreams.map((upstream) => upstream.name) }
}
