// A ToolRegistry holds what a server offers: tools (name + JSON Schema + handler), resources
// (static URIs and URI templates), prompts and their completions. It is plain data plus
// handlers; the runtime and the transports serve it. Every definition is checked when it is
// registered, so a mistake fails at start-up with a message naming it, not at the first call.

import { SchemaError, validateArguments } from '@mcp-kit/schema'
import type {
  Annotations,
  CallToolResult,
  GetPromptResult,
  Icon,
  PromptMessage,
  ReadResourceResult,
  ToolAnnotations,
  UriTemplate,
  Variables,
} from '@modelcontextprotocol/server'
import type { HandlerContext } from './context.js'
import { ServerError } from './errors.js'
import { serverSdk } from './sdk.js'

export type JsonSchema = Record<string, unknown>

/** What a tool handler may return: a full result, a string (one text item) or a value (JSON text + structuredContent for objects). */
export type ToolOutput =
  | CallToolResult
  | string
  | Record<string, unknown>
  | unknown[]
  | number
  | boolean
  | null
  | undefined

export interface ToolDefinition<Args = Record<string, unknown>> {
  /** 1–128 letters, digits, `_`, `-` or `.` (MCP 2025-11-25). */
  name: string
  title?: string
  description?: string
  /** JSON Schema of the arguments, `type: "object"`; default: an object with any properties. Passed to clients verbatim. */
  inputSchema?: JsonSchema
  /** JSON Schema of `structuredContent`, `type: "object"`; results are checked against it. */
  outputSchema?: JsonSchema
  annotations?: ToolAnnotations
  icons?: Icon[]
  _meta?: Record<string, unknown>
  /**
   * OAuth scopes a caller's token must carry to call this tool, when the server checks tokens
   * (`authIssuer`): without them the call is answered 403 `insufficient_scope`, naming them.
   */
  scopes?: readonly string[]
  /** Called with arguments that passed the inputSchema. A thrown error becomes an `isError` result. */
  handler(args: Args, context: HandlerContext): ToolOutput | Promise<ToolOutput>
}

/** What a resource reader may return: a full result, text, or bytes (sent as a base64 blob). */
export type ResourceOutput = ReadResourceResult | string | Uint8Array

interface ResourceCommon {
  name: string
  title?: string
  description?: string
  mimeType?: string
  annotations?: Annotations
  icons?: Icon[]
  _meta?: Record<string, unknown>
  /**
   * Keep what `read` returned for this many milliseconds and answer from memory meanwhile.
   * Cached results carry `_meta.fetched_at` (ISO time of the read). The cache is shared by every
   * session of a server: do not cache per-user content. Also the `ttlMs` freshness hint of
   * 2026-07-28 `resources/read` results (default 0: immediately stale).
   */
  ttlMs?: number
  /**
   * Who may cache a read (2026-07-28 `cacheScope`): `public` when the content is the same for
   * every user, `private` (the default) when it may depend on who asks.
   */
  cacheScope?: CacheScope
}

export interface ResourceDefinition extends ResourceCommon {
  uri: string
  size?: number
  read(uri: string, context: HandlerContext): ResourceOutput | Promise<ResourceOutput>
}

/** Offers values for a partly typed argument (completion/complete). At most 100 are sent. */
export type Completer = (
  value: string,
  context: { arguments: Record<string, string> },
) => string[] | Promise<string[]>

export interface ResourceTemplateDefinition extends ResourceCommon {
  /** An RFC 6570 URI template, e.g. `weather://{city}/today`. */
  uriTemplate: string
  read(uri: string, variables: Variables, context: HandlerContext): ResourceOutput | Promise<ResourceOutput>
  /** Completions for the template's variables, by variable name. */
  complete?: Record<string, Completer>
}

export interface PromptArgument {
  name: string
  title?: string
  description?: string
  required?: boolean
  complete?: Completer
}

/** What a prompt may return: a full result, one user text message, or messages. */
export type PromptOutput = GetPromptResult | string | PromptMessage[]

export interface PromptDefinition<Args = Record<string, string>> {
  name: string
  title?: string
  description?: string
  arguments?: PromptArgument[]
  icons?: Icon[]
  _meta?: Record<string, unknown>
  /** Called once every required argument is present. */
  get(args: Args, context: HandlerContext): PromptOutput | Promise<PromptOutput>
}

export type ListName = 'tools' | 'resources' | 'prompts'

export type CacheScope = 'public' | 'private'

/** A 2026-07-28 cache hint: how long a result stays fresh, and who may share a cached copy. */
export interface CacheHint {
  ttlMs: number
  scope: CacheScope
}

/** The lists whose results carry cache hints. */
export type CachedList = 'tools' | 'resources' | 'resourceTemplates' | 'prompts'

export interface ToolRegistryOptions {
  /**
   * Cache hints of the list results (2026-07-28 `ttlMs`/`cacheScope`); default 60 s, `public`
   * for each. Clients that listen for list changes drop their copy at once when a list changes.
   */
  cache?: Partial<Record<CachedList, Partial<CacheHint>>>
}

export type RegistryEvent =
  | { type: 'list_changed'; list: ListName }
  | { type: 'resource_updated'; uri: string }

export interface ResourceMatch {
  uri: string
  /** The static resource, or the template that matched. */
  resource: ResourceDefinition | ResourceTemplateDefinition
  /** The template's variables (empty for a static resource). */
  variables: Variables
}

export interface ToolRegistry {
  tool<Args = Record<string, unknown>>(definition: ToolDefinition<Args>): ToolRegistry
  resource(definition: ResourceDefinition): ToolRegistry
  resourceTemplate(definition: ResourceTemplateDefinition): ToolRegistry
  prompt<Args = Record<string, string>>(definition: PromptDefinition<Args>): ToolRegistry
  readonly tools: ReadonlyMap<string, ToolDefinition>
  readonly resources: ReadonlyMap<string, ResourceDefinition>
  readonly resourceTemplates: ReadonlyMap<string, ResourceTemplateDefinition>
  readonly prompts: ReadonlyMap<string, PromptDefinition>
  /** The static resource with this URI, else the first template (in registration order) that matches it. */
  findResource(uri: string): ResourceMatch | undefined
  /** Says a resource changed: drops its cached reads and notifies subscribed clients. */
  resourceUpdated(uri: string): void
  /**
   * Says a list changed without a registration (what the tools do, or which ones a gateway
   * offers, changed): clients that listen re-fetch it.
   */
  listChanged(list: ListName): void
  /** Called after each registration and update (servers send list_changed / resources/updated). */
  onChange(listener: (event: RegistryEvent) => void): () => void
  /** The cache hint of a list's results. */
  cacheHint(list: CachedList): CacheHint
  /** Changes the cache hint of a list's results (a gateway passes on its upstream's). */
  setCacheHint(list: CachedList, hint: Partial<CacheHint>): ToolRegistry
}

const namePattern = /^[A-Za-z0-9_.-]{1,128}$/
const uriPattern = /^[A-Za-z][A-Za-z0-9+.-]*:/
const registryBrand = Symbol.for('mcp-kit.registry')

/** True for a registry from createToolRegistry() of any copy of this package. */
export function isToolRegistry(value: unknown): value is ToolRegistry {
  return (
    typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[registryBrand] === true
  )
}

function refuse(message: string, cause?: unknown): never {
  throw new ServerError('invalid_definition', message, { cause })
}

function checkName(kind: string, name: unknown): asserts name is string {
  if (typeof name !== 'string' || !namePattern.test(name)) {
    refuse(`invalid ${kind} name ${JSON.stringify(name)}: use 1-128 letters, digits, '_', '-' or '.'`)
  }
}

function checkText(owner: string, field: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'string') refuse(`${owner}: ${field} must be a string`)
}

const defaultListHint: CacheHint = Object.freeze({ ttlMs: 60_000, scope: 'public' })

function checkHint(owner: string, hint: Partial<CacheHint> | undefined): void {
  if (hint === undefined) return
  checkTtl(owner, hint.ttlMs)
  checkScope(owner, hint.scope)
}

function checkScope(owner: string, scope: unknown): void {
  if (scope !== undefined && scope !== 'public' && scope !== 'private') {
    refuse(`${owner}: cacheScope must be 'public' or 'private'`)
  }
}

function checkTtl(owner: string, ttlMs: unknown): void {
  if (ttlMs !== undefined && !(typeof ttlMs === 'number' && Number.isFinite(ttlMs) && ttlMs >= 0)) {
    refuse(`${owner}: ttlMs must be a number of milliseconds >= 0`)
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
  }
  return value
}

/**
 * Copies and freezes a tool schema and compiles it once (the compiled validator is cached by the
 * frozen copy's identity, so later mutation of the caller's object cannot desynchronize them).
 */
function prepareSchema(owner: string, field: string, schema: unknown): JsonSchema {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    refuse(`${owner}: ${field} must be a JSON Schema object`)
  }
  if ((schema as JsonSchema).type !== 'object') {
    refuse(`${owner}: ${field} must have "type": "object" (MCP requires object arguments and results)`)
  }
  let copy: JsonSchema
  try {
    copy = deepFreeze(structuredClone(schema as JsonSchema))
  } catch (error) {
    refuse(`${owner}: ${field} must be plain JSON (${(error as Error).message})`, error)
  }
  try {
    validateArguments({}, copy)
  } catch (error) {
    if (SchemaError.isInstance(error)) refuse(`${owner}: invalid ${field}: ${error.message}`, error)
    throw error
  }
  return copy
}

const emptyInputSchema: JsonSchema = deepFreeze({ type: 'object', properties: {} })

/** Creates an empty registry. Registration refuses duplicates and invalid names or schemas at once. */
export function createToolRegistry(options: ToolRegistryOptions = {}): ToolRegistry {
  const hints: Record<CachedList, CacheHint> = {
    tools: defaultListHint,
    resources: defaultListHint,
    resourceTemplates: defaultListHint,
    prompts: defaultListHint,
  }
  const setHint = (list: CachedList, hint: Partial<CacheHint> | undefined) => {
    if (!(list in hints))
      refuse(`unknown list '${String(list)}' (tools, resources, resourceTemplates, prompts)`)
    checkHint(`cache hint for ${list}`, hint)
    hints[list] = Object.freeze({ ...hints[list], ...hint })
  }
  for (const [list, hint] of Object.entries(options.cache ?? {})) setHint(list as CachedList, hint)
  const tools = new Map<string, ToolDefinition>()
  const resources = new Map<string, ResourceDefinition>()
  const resourceTemplates = new Map<string, ResourceTemplateDefinition>()
  const templateMatchers: Array<{ template: UriTemplate; definition: ResourceTemplateDefinition }> = []
  const prompts = new Map<string, PromptDefinition>()
  const listeners = new Set<(event: RegistryEvent) => void>()
  const emit = (event: RegistryEvent): void => {
    for (const listener of listeners) {
      try {
        listener(event)
      } catch {
        // A failing listener (a closed session) must not break registration or other sessions.
      }
    }
  }

  const registry: ToolRegistry = {
    tools,
    resources,
    resourceTemplates,
    prompts,
    tool(definition) {
      const candidate = definition as ToolDefinition
      checkName('tool', candidate?.name)
      const owner = `tool '${candidate.name}'`
      if (tools.has(candidate.name)) refuse(`${owner} is already registered`)
      if (typeof candidate.handler !== 'function') refuse(`${owner} needs a handler function`)
      checkText(owner, 'title', candidate.title)
      checkText(owner, 'description', candidate.description)
      if (
        candidate.scopes !== undefined &&
        (!Array.isArray(candidate.scopes) ||
          candidate.scopes.some(
            (scope) => typeof scope !== 'string' || !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(scope),
          ))
      ) {
        refuse(`${owner}: scopes must be a list of OAuth scope names`)
      }
      const inputSchema =
        candidate.inputSchema === undefined
          ? emptyInputSchema
          : prepareSchema(owner, 'inputSchema', candidate.inputSchema)
      const outputSchema =
        candidate.outputSchema === undefined
          ? undefined
          : prepareSchema(owner, 'outputSchema', candidate.outputSchema)
      tools.set(candidate.name, Object.freeze({ ...candidate, inputSchema, outputSchema }))
      emit({ type: 'list_changed', list: 'tools' })
      return registry
    },
    resource(definition) {
      const uri = definition?.uri
      if (typeof uri !== 'string' || !uriPattern.test(uri)) {
        refuse(`invalid resource URI ${JSON.stringify(uri)}: it needs a scheme, e.g. 'docs://readme'`)
      }
      const owner = `resource '${uri}'`
      if (resources.has(uri)) refuse(`${owner} is already registered`)
      if (typeof definition.name !== 'string' || definition.name === '') refuse(`${owner} needs a name`)
      if (typeof definition.read !== 'function') refuse(`${owner} needs a read function`)
      checkText(owner, 'mimeType', definition.mimeType)
      checkTtl(owner, definition.ttlMs)
      checkScope(owner, definition.cacheScope)
      resources.set(uri, Object.freeze({ ...definition }))
      emit({ type: 'list_changed', list: 'resources' })
      return registry
    },
    resourceTemplate(definition) {
      const uriTemplate = definition?.uriTemplate
      if (typeof uriTemplate !== 'string' || !uriPattern.test(uriTemplate)) {
        refuse(`invalid URI template ${JSON.stringify(uriTemplate)}: it needs a scheme, e.g. 'notes://{id}'`)
      }
      const owner = `resource template '${uriTemplate}'`
      if (resourceTemplates.has(uriTemplate)) refuse(`${owner} is already registered`)
      if (typeof definition.name !== 'string' || definition.name === '') refuse(`${owner} needs a name`)
      if (typeof definition.read !== 'function') refuse(`${owner} needs a read function`)
      checkTtl(owner, definition.ttlMs)
      checkScope(owner, definition.cacheScope)
      let template: UriTemplate
      try {
        template = new (serverSdk().UriTemplate)(uriTemplate)
      } catch (error) {
        refuse(`invalid URI template '${uriTemplate}': ${(error as Error).message}`, error)
      }
      for (const variable of Object.keys(definition.complete ?? {})) {
        if (!template.variableNames.includes(variable))
          refuse(`${owner}: completion for unknown variable '${variable}'`)
      }
      const frozen = Object.freeze({ ...definition })
      resourceTemplates.set(uriTemplate, frozen)
      templateMatchers.push({ template, definition: frozen })
      emit({ type: 'list_changed', list: 'resources' })
      return registry
    },
    prompt(definition) {
      const candidate = definition as PromptDefinition
      checkName('prompt', candidate?.name)
      const owner = `prompt '${candidate.name}'`
      if (prompts.has(candidate.name)) refuse(`${owner} is already registered`)
      if (typeof candidate.get !== 'function') refuse(`${owner} needs a get function`)
      const seen = new Set<string>()
      for (const argument of candidate.arguments ?? []) {
        if (typeof argument?.name !== 'string' || argument.name === '')
          refuse(`${owner}: every argument needs a name`)
        if (seen.has(argument.name)) refuse(`${owner}: argument '${argument.name}' is declared twice`)
        seen.add(argument.name)
      }
      prompts.set(
        candidate.name,
        Object.freeze({ ...candidate, arguments: candidate.arguments?.map((argument) => ({ ...argument })) }),
      )
      emit({ type: 'list_changed', list: 'prompts' })
      return registry
    },
    findResource(uri) {
      const resource = resources.get(uri)
      if (resource !== undefined) return { uri, resource, variables: {} }
      for (const { template, definition } of templateMatchers) {
        const variables = template.match(uri)
        if (variables !== null) return { uri, resource: definition, variables }
      }
      return undefined
    },
    resourceUpdated(uri) {
      emit({ type: 'resource_updated', uri })
    },
    listChanged(list) {
      if (list !== 'tools' && list !== 'resources' && list !== 'prompts') {
        refuse(`unknown list '${String(list)}' (tools, resources, prompts)`)
      }
      emit({ type: 'list_changed', list })
    },
    onChange(listener) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
    cacheHint(list) {
      return hints[list]
    },
    setCacheHint(list, hint) {
      setHint(list, hint)
      return registry
    },
  }
  Object.defineProperty(registry, registryBrand, { value: true })
  return registry
}
