// An OpenAPI document as MCP tools: one ToolDefinition per operation (after the filter), whose
// handler sends the operation's request and turns the answer into a result; and a ToolRegistry
// of them, new or an existing one with a prefix before each name (a gateway's namespace).

import type { ToolDefinition, ToolRegistry } from '@mcp-kit/server'
import { createToolRegistry } from '@mcp-kit/server/internal'
import type { Dispatcher } from 'undici'
import type { OpenApiCredential } from './auth/credentials.js'
import { toolScopes } from './auth/scopes.js'
import { prepareApi } from './call/api.js'
import { describeFiles } from './call/files.js'
import { callHandler, prepareOperation } from './call/handler.js'
import type { OpenApiDocument } from './document/load.js'
import { OpenApiError } from './errors.js'
import { annotationsOf } from './tools/annotations.js'
import { compileOperationFilter } from './tools/filter.js'
import { inputOf } from './tools/input-schema.js'
import { toolNames } from './tools/naming.js'
import { type Operation, operationsOf } from './tools/operations.js'
import { type OutputSchemaMode, outputOf } from './tools/output-schema.js'

export interface OpenApiToolOptions {
  /** Where requests go (default: the document's first server URL). Every request goes to this origin. */
  baseUrl?: string
  /**
   * Headers sent with every request, e.g. `{ 'X-Api-Key': key }`: they win over credentials' headers,
   * and lose to a header parameter the caller passes.
   */
  headers?: Readonly<Record<string, string>>
  /** Headers sent with every request that nothing overrides, not even the caller's header parameters. */
  forcedHeaders?: Readonly<Record<string, string>>
  /** Secrets by security scheme name (see `credentialsFromEnvironment`). */
  credentials?: Readonly<Record<string, OpenApiCredential>>
  /** Operations to offer: tool names, operationIds, `tag:NAME` or `METHOD /path`, with `*`/`?` globs (default all). */
  include?: readonly string[]
  /** Operations to leave out, written as for `include`. */
  exclude?: readonly string[]
  /** How long one request may take, in ms (default 30 s). */
  timeoutMs?: number
  /** The largest answer read, in bytes (default 10 MiB). */
  maxResponseBytes?: number
  /**
   * The output schemas tools declare, from the success responses: `none` (`false`; the default,
   * unless `strictResponses`: then `full`), `compact` (no descriptions or examples below the top
   * level) or `full` (`true`). A declared
   * schema is a promise clients hold answers to, so declaring one makes answers strict. Results
   * are the same in every mode.
   */
  outputSchemas?: OutputSchemaMode | boolean
  /**
   * Refuse a 2xx answer that does not match the document (an error result naming the fields of
   * the answer) instead of returning it with warnings in its result's `_meta`. Default: true when
   * `outputSchemas` declares schemas, else false.
   */
  strictResponses?: boolean
  /** Give each tool the OAuth scopes its operation's security names, for a server that checks tokens. */
  requireScopes?: boolean
  /** Where file arguments `@name` are read from (default: none; files are given in base64). */
  filesDirectory?: string
  /** The undici dispatcher requests go through (default undici's global one). */
  dispatcher?: Dispatcher
  /** The fetch used for OAuth token requests (default the global fetch). */
  fetch?: typeof fetch
}

export interface OpenApiTool {
  /** The tool's name (without a registry prefix). */
  name: string
  method: string
  path: string
  operationId: string | undefined
  tags: readonly string[]
  definition: ToolDefinition
}

/** The summary, then the description unless it repeats the summary. */
function describe(summary: string | undefined, description: string | undefined): string | undefined {
  if (summary === undefined || description === undefined) return summary ?? description
  const plain = (text: string) => text.replace(/[\s.:]+$/, '').toLowerCase()
  // Only the description's start is compared: lower-casing a long description whole costs more.
  const start = description.slice(0, summary.length + 16).toLowerCase()
  return start.startsWith(plain(summary)) ? description : `${summary}\n\n${description}`
}

function outputModeOf(
  mode: OpenApiToolOptions['outputSchemas'],
  strict: boolean | undefined,
): OutputSchemaMode {
  if (mode === undefined) return strict === true ? 'full' : 'none'
  if (mode === false) return 'none'
  if (mode === true) return 'full'
  if (mode === 'full' || mode === 'compact' || mode === 'none') return mode
  throw new OpenApiError(
    'invalid_options',
    `outputSchemas is 'full', 'compact' or 'none' (got ${JSON.stringify(mode)})`,
  )
}

/** The tools of a document, without registering them. Fails with OpenApiError `invalid_options`. */
export function openApiTools(document: OpenApiDocument, options: OpenApiToolOptions = {}): OpenApiTool[] {
  const outputMode = outputModeOf(options.outputSchemas, options.strictResponses)
  if (outputMode !== 'none' && options.strictResponses === false) {
    throw new OpenApiError(
      'invalid_options',
      'a declared outputSchema is a promise clients hold answers to: strictResponses cannot be false with outputSchemas full or compact',
    )
  }
  const api = prepareApi(document, {
    ...options,
    strictResponses: options.strictResponses ?? outputMode !== 'none',
  })
  const wanted = compileOperationFilter(options)
  const operations = operationsOf(document)
  const names = toolNames(operations)
  const tools: OpenApiTool[] = []
  operations.forEach((operation, index) => {
    const name = names[index] as string
    if (!wanted(operation, name)) return
    const input = inputOf(operation)
    const output = outputOf(operation, outputMode)
    // What a call needs of the operation; the document's answers (examples and all) can go.
    const request: Operation = { ...operation, responses: {} }
    const where = `${operation.method} ${operation.path}`
    const description = describe(operation.summary, operation.description) ?? where
    const prepared = prepareOperation(document, request, input.plan)
    const inputSchema = describeFiles(input.schema, prepared, api.files !== undefined)
    const definition: ToolDefinition = {
      name,
      description: operation.deprecated ? `(deprecated) ${description}` : description,
      inputSchema,
      annotations: annotationsOf(operation),
      handler: callHandler(api, prepared, output),
    }
    if (options.requireScopes === true) {
      const scopes = toolScopes(document, operation.security, where)
      if (scopes.length > 0) definition.scopes = scopes
    }
    if (output.schema !== undefined) definition.outputSchema = output.schema
    tools.push({
      name,
      method: operation.method,
      path: operation.path,
      operationId: operation.operationId,
      tags: operation.tags,
      definition,
    })
  })
  return tools
}

export interface OpenApiRegistryOptions extends OpenApiToolOptions {
  /** Add the tools to this registry instead of a new one. */
  registry?: ToolRegistry
  /** Put before each tool's name, e.g. `pets__` beside other upstreams of a gateway. */
  prefix?: string
}

/** A ToolRegistry whose tools call the API: serve it with startHttpServer or serveStdio. */
export function createOpenApiRegistry(
  document: OpenApiDocument,
  options: OpenApiRegistryOptions = {},
): ToolRegistry {
  const registry = options.registry ?? createToolRegistry()
  const tools = openApiTools(document, options)
  registry.batch(() => {
    for (const tool of tools)
      registry.tool({ ...tool.definition, name: `${options.prefix ?? ''}${tool.name}` })
  })
  return registry
}
