// An OpenAPI document as MCP tools: one ToolDefinition per operation (after the filter), whose
// handler sends the operation's request and turns the answer into a result; and a ToolRegistry
// of them, new or an existing one with a prefix before each name (a gateway's namespace).

import { createToolRegistry, type ToolDefinition, type ToolRegistry } from '@mcp-kit/server'
import type { Dispatcher } from 'undici'
import { createAuthorizer, type OpenApiCredential } from './auth/credentials.js'
import type { OpenApiDocument } from './document/load.js'
import { baseUrlOf } from './document/servers.js'
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
  /** Headers sent with every request, e.g. `{ 'X-Api-Key': key }`; they win over those credentials give. */
  headers?: Readonly<Record<string, string>>
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
   * The output schemas tools declare, from the success responses: `full` (the default; `true`),
   * `compact` (no descriptions or examples below the top level) or `none` (`false`). Results are
   * the same either way.
   */
  outputSchemas?: OutputSchemaMode | boolean
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

// What a call needs (undici among it) loads at the first call, not when the tools are made.
let loading:
  | Promise<
      typeof import('./http/request.js') & typeof import('./http/send.js') & typeof import('./http/answer.js')
    >
  | undefined
function requestModules() {
  loading ??= Promise.all([
    import('./http/request.js'),
    import('./http/send.js'),
    import('./http/answer.js'),
  ]).then(([request, sending, answer]) => ({ ...request, ...sending, ...answer }))
  return loading
}

function checkHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const checked: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new OpenApiError('invalid_options', `${JSON.stringify(name)} is not a header name`)
    }
    if (/[\r\n\0]/.test(value))
      throw new OpenApiError('invalid_options', `the ${name} header's value has a line break`)
    checked[name.toLowerCase()] = value
  }
  return checked
}

function outputModeOf(mode: OpenApiToolOptions['outputSchemas']): OutputSchemaMode {
  if (mode === undefined || mode === true) return 'full'
  if (mode === false) return 'none'
  if (mode === 'full' || mode === 'compact' || mode === 'none') return mode
  throw new OpenApiError(
    'invalid_options',
    `outputSchemas is 'full', 'compact' or 'none' (got ${JSON.stringify(mode)})`,
  )
}

/** The tools of a document, without registering them. Fails with OpenApiError `invalid_options`. */
export function openApiTools(document: OpenApiDocument, options: OpenApiToolOptions = {}): OpenApiTool[] {
  const base = baseUrlOf(document, options.baseUrl)
  const headers = checkHeaders(options.headers ?? {})
  const authorize = createAuthorizer(document, options.credentials ?? {}, base, options.fetch)
  const timeoutMs = options.timeoutMs ?? 30_000
  const maxResponseBytes = options.maxResponseBytes ?? 10 * 1024 * 1024
  const wanted = compileOperationFilter(options)
  const outputMode = outputModeOf(options.outputSchemas)
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
    const description =
      [operation.summary, operation.description].filter((text) => text !== undefined).join('\n\n') || where
    const definition: ToolDefinition = {
      name,
      description: operation.deprecated ? `(deprecated) ${description}` : description,
      inputSchema: input.schema,
      annotations: annotationsOf(operation),
      async handler(args, context) {
        const { buildRequest, send, SendFailure, toToolResult } = await requestModules()
        const http = buildRequest(request, input.plan, args, base)
        Object.assign(http.headers, headers)
        try {
          await authorize(http, request.security, context.signal)
          const answer = await send(http, {
            dispatcher: options.dispatcher,
            timeoutMs,
            maxResponseBytes,
            signal: context.signal,
          })
          return toToolResult(answer, output.shape(), where, http.url)
        } catch (error) {
          if (error instanceof SendFailure)
            return { isError: true, content: [{ type: 'text', text: error.message }] }
          throw error
        }
      },
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
