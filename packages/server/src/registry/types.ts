// The registry's public types: what a tool, resource, resource template and prompt definition
// holds, the change events, and the ToolRegistry interface (implemented in registry.ts).

import type {
  Annotations,
  CallToolResult,
  GetPromptResult,
  Icon,
  PromptMessage,
  ReadResourceResult,
  ToolAnnotations,
  Variables,
} from '@modelcontextprotocol/server'
import type { HandlerContext } from '../context.js'

export type JsonSchema = Record<string, unknown>

/** Whether a tool's calls may run as tasks (see ToolDefinition.taskSupport). */
export type TaskSupport = 'forbidden' | 'optional' | 'required'

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
  /**
   * Leave checking to someone else (a gateway's upstream): the schemas are passed on as they
   * are, without compiling them, and neither arguments nor results are validated here.
   */
  passthrough?: boolean
  /**
   * Whether a call may run as a task (the io.modelcontextprotocol/tasks extension of 2026-07-28,
   * SEP-2663; the values are the spec's `taskSupport`). `forbidden` (the default): always answered
   * in the request. `optional`: a client that declared the extension gets a task handle and follows
   * the task (`tasks/get`); other clients get the result in the request. `required`: only as a
   * task; 2026-07-28 clients without the extension get -32021 (2025-11-25 sessions, which have no
   * such extension, are answered in the request). The handler does not change either way.
   */
  taskSupport?: TaskSupport
  /**
   * When a task-supporting call becomes a task: `call` (the default) at once, before the handler
   * runs; `handler` when the handler calls `context.startTask()`, so that questions it asks before
   * are answered in the request (input_required rounds) and the task starts with what it learnt;
   * a number of milliseconds: when the call is still running after that long, so that fast calls
   * answer in the request (the spec's immediate-result shortcut). A call that ends before it
   * became a task answers in the request.
   */
  taskStart?: 'call' | 'handler' | number
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
   * Cached results carry `_meta.fetched_at` (ISO time of the read). A `private` resource (the
   * default) is cached per principal, a `public` one once for everyone. Also the `ttlMs` freshness hint of
   * 2026-07-28 `resources/read` results (default 0: immediately stale).
   */
  ttlMs?: number
  /**
   * Who may cache a read (2026-07-28 `cacheScope`): `public` when the content is the same for
   * every user, `private` (the default) when it may depend on who asks.
   */
  cacheScope?: CacheScope
  /**
   * Called when the first client subscribes to a URI this definition serves (2025
   * `resources/subscribe`, 2026 `subscriptions/listen`); the function it returns is called when
   * the last one goes. For resources whose updates come from elsewhere (a gateway's upstream):
   * call `registry.resourceUpdated(uri)` when they change.
   */
  subscribe?(uri: string): (() => void) | undefined
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
  /**
   * The tool of this name for a call. When none is registered and a waiter is set (onMissingTool),
   * the waiter may first wait for it to appear; the calls of every transport look tools up here.
   */
  resolveTool(name: string, signal: AbortSignal): Promise<ToolDefinition | undefined>
  /**
   * Lets a call for a tool that is not registered (yet) wait for it, as a gateway does while an
   * upstream is still starting: `wait` settles once the tool may be there (if it is not, the call
   * answers Unknown tool). One waiter per registry; the returned function removes it.
   */
  onMissingTool(wait: (name: string, signal: AbortSignal) => Promise<void>): () => void
  /** Removes a tool (clients that listen are told the list changed); false when there was none. */
  removeTool(name: string): boolean
  removeResource(uri: string): boolean
  removeResourceTemplate(uriTemplate: string): boolean
  removePrompt(name: string): boolean
  /**
   * Runs `change` and sends one list_changed per list it touched, after it (for many additions
   * and removals at once, e.g. a gateway refreshing an upstream's tools).
   */
  batch(change: () => void): void
  /**
   * A client subscribes to a resource: calls the matching definition's `subscribe` hook for the
   * first subscriber of a URI. The returned function unsubscribes (the hook's disposer runs when
   * the last subscriber goes). The servers call this; applications rarely need to.
   */
  watchResource(uri: string): () => void
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
