// A gateway config entry of its own kind: a REST API by its OpenAPI document rather than an MCP
// server (`"openapi": "./petstore.yaml"` or a URL, relative paths from the config file's folder),
// with optional `baseUrl`, `headers`, `forcedHeaders`, `credentials` (by security scheme: a key or
// token, or `{ "username", "password" }` / `{ "clientId", "clientSecret" }`), `include` and
// `exclude` (operationIds, `tag:NAME`, `path:/prefix`, `METHOD /path`, globs), `outputSchemas` (`full`,
// `compact` or `none`), `prefix`, `timeout` (seconds),
// `maxResponse` (bytes, or a size such as "4MiB"), `strictResponses`, `allowRemoteRefs` and
// `files` (the directory uploads are read from, relative to the file). `${NAME}` works as
// elsewhere in the file. The gateway only reads such entries; whoever serves it turns them into tools
// (`mcp-kit serve` with @mcp-kit/openapi).

import { dirname, isAbsolute, resolve } from 'node:path'
import { isRecord } from '@mcp-kit/core'

export interface ConfigApi {
  /** The entry's name: the namespace of its tools (`name__operationId`). */
  name: string
  /** The document: a URL, or an absolute file path. */
  spec: string
  baseUrl?: string
  headers?: Record<string, string>
  /** Headers nothing overrides, not even a caller's header parameter. */
  forcedHeaders?: Record<string, string>
  /** How long one request may take, in seconds. */
  timeout?: number
  /** The largest answer read: bytes, or a size such as "4MiB" (the server reads it). */
  maxResponse?: number | string
  strictResponses?: boolean
  allowRemoteRefs?: boolean
  /** The directory file arguments are read from (absolute). */
  files?: string
  credentials?: Record<string, string | Record<string, string>>
  include?: string[]
  exclude?: string[]
  /** The output schemas tools declare: `none` (the default), `compact` or `full` (answers strict then). */
  outputSchemas?: 'full' | 'compact' | 'none'
  prefix?: string
}

function strings(value: unknown, where: string, fail: (message: string) => never): string[] | undefined {
  if (value === undefined) return undefined
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value
  fail(`${where} must be a list of strings`)
}

function stringMap(
  value: unknown,
  where: string,
  fail: (message: string) => never,
): Record<string, string> | undefined {
  if (value === undefined) return undefined
  if (isRecord(value) && Object.values(value).every((item) => typeof item === 'string'))
    return value as Record<string, string>
  fail(`${where} must be an object of strings`)
}

/** The API an `openapi` entry names (variables already substituted). */
export function configApiOf(
  name: string,
  entry: Record<string, unknown>,
  file: string,
  fail: (message: string) => never,
): ConfigApi {
  const where = `${file}: '${name}'`
  if (typeof entry.openapi !== 'string' || entry.openapi.trim() === '')
    fail(`${where}.openapi must be a URL or a file path`)
  const spec = entry.openapi.trim()
  const api: ConfigApi = {
    name,
    spec: /^[a-z][a-z0-9+.-]*:\/\//i.test(spec) || isAbsolute(spec) ? spec : resolve(dirname(file), spec),
  }
  if (entry.baseUrl !== undefined) {
    if (typeof entry.baseUrl !== 'string') fail(`${where}.baseUrl must be a URL`)
    api.baseUrl = entry.baseUrl
  }
  const headers = stringMap(entry.headers, `${where}.headers`, fail)
  if (headers !== undefined) api.headers = headers
  const forcedHeaders = stringMap(entry.forcedHeaders, `${where}.forcedHeaders`, fail)
  if (forcedHeaders !== undefined) api.forcedHeaders = forcedHeaders
  if (entry.timeout !== undefined) {
    if (typeof entry.timeout !== 'number' || !(entry.timeout > 0))
      fail(`${where}.timeout must be a number of seconds > 0`)
    api.timeout = entry.timeout
  }
  if (entry.maxResponse !== undefined) {
    if (typeof entry.maxResponse !== 'number' && typeof entry.maxResponse !== 'string')
      fail(`${where}.maxResponse must be a number of bytes or a size such as "4MiB"`)
    api.maxResponse = entry.maxResponse
  }
  for (const flag of ['strictResponses', 'allowRemoteRefs'] as const) {
    if (entry[flag] === undefined) continue
    if (typeof entry[flag] !== 'boolean') fail(`${where}.${flag} must be true or false`)
    api[flag] = entry[flag]
  }
  if (entry.files !== undefined) {
    if (typeof entry.files !== 'string' || entry.files.trim() === '')
      fail(`${where}.files must be a directory`)
    api.files = resolve(dirname(file), entry.files)
  }
  if (entry.credentials !== undefined) {
    const credentials = entry.credentials
    if (typeof credentials !== 'object' || credentials === null || Array.isArray(credentials)) {
      fail(`${where}.credentials must be an object: security scheme → secret`)
    }
    api.credentials = {}
    for (const [scheme, value] of Object.entries(credentials)) {
      api.credentials[scheme] =
        typeof value === 'string'
          ? value
          : (stringMap(value, `${where}.credentials.${scheme}`, fail) as Record<string, string>)
    }
  }
  const include = strings(entry.include, `${where}.include`, fail)
  if (include !== undefined) api.include = include
  const exclude = strings(entry.exclude, `${where}.exclude`, fail)
  if (exclude !== undefined) api.exclude = exclude
  if (entry.outputSchemas !== undefined) {
    const mode = entry.outputSchemas
    if (mode !== 'full' && mode !== 'compact' && mode !== 'none') {
      fail(`${where}.outputSchemas must be "full", "compact" or "none"`)
    }
    api.outputSchemas = mode
  }
  if (entry.prefix !== undefined) {
    if (typeof entry.prefix !== 'string' || /[^A-Za-z0-9_-]/.test(entry.prefix)) {
      fail(`${where}.prefix must be letters, digits, '_' or '-'`)
    }
    api.prefix = entry.prefix
  }
  return api
}
