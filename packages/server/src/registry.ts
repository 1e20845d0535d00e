// A ToolRegistry holds what a server offers: tools (name + JSON Schema + handler), resources
// and prompts. It is plain data plus handlers; transports and the runtime serve it.

import type {
  CallToolResult,
  GetPromptResult,
  ReadResourceResult,
  ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js'
import { ServerError } from './errors.js'

export type JsonSchema = Record<string, unknown>

export interface HandlerContext {
  /** Aborted when the client cancels the request or the session ends. */
  signal: AbortSignal
  /** Reports progress to the client (when it asked for progress). */
  progress(progress: number, total?: number, message?: string): Promise<void>
  /** Sends a log message to the client. */
  log(level: 'debug' | 'info' | 'notice' | 'warning' | 'error', data: unknown): Promise<void>
  sessionId: string | undefined
}

/** What a tool handler may return: a full result, a string (one text item) or a value (JSON text + structuredContent). */
export type ToolOutput =
  | CallToolResult
  | string
  | Record<string, unknown>
  | unknown[]
  | number
  | boolean
  | null

export interface ToolDefinition {
  name: string
  title?: string
  description?: string
  inputSchema?: JsonSchema
  outputSchema?: JsonSchema
  annotations?: ToolAnnotations
  handler(args: Record<string, unknown>, context: HandlerContext): ToolOutput | Promise<ToolOutput>
}

export interface ResourceDefinition {
  uri: string
  name: string
  title?: string
  description?: string
  mimeType?: string
  read(
    uri: string,
    context: HandlerContext,
  ): ReadResourceResult | string | Promise<ReadResourceResult | string>
}

export interface PromptArgument {
  name: string
  description?: string
  required?: boolean
}

export interface PromptDefinition {
  name: string
  title?: string
  description?: string
  arguments?: PromptArgument[]
  get(
    args: Record<string, string>,
    context: HandlerContext,
  ): GetPromptResult | string | Promise<GetPromptResult | string>
}

export interface ToolRegistry {
  tool(definition: ToolDefinition): ToolRegistry
  resource(definition: ResourceDefinition): ToolRegistry
  prompt(definition: PromptDefinition): ToolRegistry
  readonly tools: ReadonlyMap<string, ToolDefinition>
  readonly resources: ReadonlyMap<string, ResourceDefinition>
  readonly prompts: ReadonlyMap<string, PromptDefinition>
  /** Called after each registration (servers use it to send list_changed). */
  onChange(listener: (kind: 'tools' | 'resources' | 'prompts') => void): () => void
}

const toolNamePattern = /^[A-Za-z0-9_.-]{1,128}$/

const registryBrand = Symbol.for('mcp-kit.registry')

export function isToolRegistry(value: unknown): value is ToolRegistry {
  return (
    typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[registryBrand] === true
  )
}

/** Creates an empty registry. Registration refuses duplicates and invalid names at once. */
export function createToolRegistry(): ToolRegistry {
  const tools = new Map<string, ToolDefinition>()
  const resources = new Map<string, ResourceDefinition>()
  const prompts = new Map<string, PromptDefinition>()
  const listeners = new Set<(kind: 'tools' | 'resources' | 'prompts') => void>()
  const changed = (kind: 'tools' | 'resources' | 'prompts') => {
    for (const listener of listeners) listener(kind)
  }
  const registry: ToolRegistry = {
    tools,
    resources,
    prompts,
    tool(definition) {
      if (!toolNamePattern.test(definition.name)) {
        throw new ServerError(
          'invalid_definition',
          `invalid tool name ${JSON.stringify(definition.name)}: use 1-128 letters, digits, '_', '-' or '.'`,
        )
      }
      if (tools.has(definition.name))
        throw new ServerError('invalid_definition', `tool '${definition.name}' is already registered`)
      if (typeof definition.handler !== 'function')
        throw new ServerError('invalid_definition', `tool '${definition.name}' needs a handler function`)
      tools.set(definition.name, definition)
      changed('tools')
      return registry
    },
    resource(definition) {
      if (resources.has(definition.uri))
        throw new ServerError('invalid_definition', `resource '${definition.uri}' is already registered`)
      resources.set(definition.uri, definition)
      changed('resources')
      return registry
    },
    prompt(definition) {
      if (prompts.has(definition.name))
        throw new ServerError('invalid_definition', `prompt '${definition.name}' is already registered`)
      prompts.set(definition.name, definition)
      changed('prompts')
      return registry
    },
    onChange(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
  Object.defineProperty(registry, registryBrand, { value: true })
  return registry
}
