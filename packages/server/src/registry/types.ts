// The registry's public types: what a resource, resource template and prompt definition holds,
// the options, the change events, and the ToolRegistry interface (implemented in registry.ts).

import type {
  Annotations,
  GetPromptResult,
  Icon,
  PromptMessage,
  ReadResourceResult,
  Variables,
} from '@modelcontextprotocol/server'
import type { HandlerContext } from '../context.js'
import type {
  JsonSchema,
  PromptArguments,
  StandardSchema,
  ToolArguments,
  ToolSchema,
} from './schema-types.js'
import type { ToolDefinition, TypedToolDefinition } from './tool-types.js'

/** What a resource reader may return: a full result, text, or bytes (sent as a base64 blob). */
export type ResourceOutput = ReadResourceResult | string | Uint8Array

interface ResourceCommon {
  name: string
  title?: string | undefined
  description?: string | undefined
  mimeType?: string | undefined
  annotations?: Annotations | undefined
  icons?: Icon[] | undefined
  _meta?: Record<string, unknown> | undefined
  /**
   * Keep what `read` returned for this many milliseconds and answer from memory meanwhile.
   * Cached results carry `_meta.fetched_at` (ISO time of the read). A `private` resource (the
   * default) is cached per principal, a `public` one once for everyone. Also the `ttlMs` freshness hint of
   * 2026-07-28 `resources/read` results (default 0: immediately stale).
   */
  ttlMs?: number | undefined
  /**
   * Who may cache a read (2026-07-28 `cacheScope`): `public` when the content is the same for
   * every user, `private` (the default) when it may depend on who asks.
   */
  cacheScope?: CacheScope | undefined
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
  size?: number | undefined
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
  complete?: Record<string, Completer> | undefined
}

export interface PromptArgument {
  name: string
  title?: string | undefined
  description?: string | undefined
  required?: boolean | undefined
  complete?: Completer | undefined
}

/** What a prompt may return: a full result, one user text message, or messages. */
export type PromptOutput = GetPromptResult | string | PromptMessage[]

export interface PromptDefinition<Args = Record<string, string>> {
  name: string
  title?: string | undefined
  description?: string | undefined
  arguments?: PromptArgument[] | undefined
  icons?: Icon[] | undefined
  _meta?: Record<string, unknown> | undefined
  /** Called once every required argument is present. */
  get(args: Args, context: HandlerContext): PromptOutput | Promise<PromptOutput>
}

/** A prompt as `registry.prompt()` takes it: `get` receives the declared arguments by name. */
export interface TypedPromptDefinition<
  Arguments extends readonly PromptArgument[] = readonly PromptArgument[],
  Args = PromptArguments<Arguments>,
> extends Omit<PromptDefinition<Args>, 'arguments' | 'get'> {
  /** The arguments, each a string; the `required` ones are always present in `get`'s `args`. */
  arguments?: Arguments | undefined
  /** Called once every required argument is present. */
  get(args: NoInfer<Args>, context: HandlerContext): PromptOutput | Promise<PromptOutput>
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

/**
 * Which entries of a list one caller sees: `key` is a tool's or prompt's name, a resource's URI
 * or a template's URI template (ToolRegistry.restrictLists).
 */
export type ListView = (list: CachedList, key: string) => boolean

/** Who asks, as a list view sees them: the request's credentials. A HandlerContext is one. */
export type ListCaller = Pick<HandlerContext, 'authInfo'>

/** Who a server says it is, at `initialize` (2025) and `server/discover` (2026). */
export interface ServerInfoOptions {
  /** `serverInfo.name` (default `mcp-kit`). */
  name?: string | undefined
  /** `serverInfo.version` (default: this package's version when `name` is the default, else `0.0.0`). */
  version?: string | undefined
  /** Told to clients (`instructions`): how to use this server's tools, in a few sentences. */
  instructions?: string | undefined
}

export interface ToolRegistryOptions extends ServerInfoOptions {
  /**
   * Cache hints of the list results (2026-07-28 `ttlMs`/`cacheScope`); default 60 s, `public`
   * for each. Clients that listen for list changes drop their copy at once when a list changes.
   */
  cache?: Partial<Record<CachedList, Partial<CacheHint>>> | undefined
  /**
   * The JSON Schema of a validator that carries none (Standard JSON Schema, `~standard.jsonSchema`),
   * for `io` `input` (an inputSchema) or `output` (an outputSchema): e.g. zod/mini's
   * `z.toJSONSchema(schema, { io })`. Without it such a validator is refused at registration.
   */
  toJsonSchema?: ((validator: StandardSchema, io: 'input' | 'output') => JsonSchema) | undefined
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
  /**
   * Registers a tool. Its handler's arguments are typed from `inputSchema` and its result from
   * `outputSchema` (JSON Schema literals or Standard Schema validators); `tool<Args>()` types the
   * arguments as `Args` instead, unchecked against the schema.
   */
  tool<
    Args = never,
    const Input extends ToolSchema = ToolSchema,
    const Output extends ToolSchema = ToolSchema,
  >(
    definition: TypedToolDefinition<Input, Output, [Args] extends [never] ? ToolArguments<Input> : Args>,
  ): ToolRegistry
  resource(definition: ResourceDefinition): ToolRegistry
  resourceTemplate(definition: ResourceTemplateDefinition): ToolRegistry
  /**
   * Registers a prompt. `get` receives the declared `arguments` by name, the required ones always
   * present; `prompt<Args>()` types them as `Args` instead.
   */
  prompt<Args = never, const Arguments extends readonly PromptArgument[] = readonly PromptArgument[]>(
    definition: TypedPromptDefinition<Arguments, [Args] extends [never] ? PromptArguments<Arguments> : Args>,
  ): ToolRegistry
  /** Who a server serving this registry says it is, unless its own options say otherwise. */
  readonly serverInfo: Readonly<ServerInfoOptions>
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
  /**
   * Lets lists depend on who asks, as a gateway's policy hides what it denies a caller: `view`
   * gets each list request's context and returns what that caller sees (undefined: everything).
   * Lists are then private to their caller (2026-07-28 `cacheScope: private`). Hiding is not
   * refusing: the entries' handlers still decide whether a call may run. What a caller does not
   * see, it cannot follow either: `resources/subscribe`, the URIs of `subscriptions/listen` and
   * `completion/complete` treat it as unknown (followable). One view per registry; the returned
   * function removes it.
   */
  restrictLists(view: (caller: ListCaller) => ListView | undefined): () => void
  /** What `caller` sees of the lists (restrictLists), or undefined: everything. */
  listView(caller: ListCaller): ListView | undefined
  /**
   * Whether `caller` sees the resource at `uri`, or the template it matches: true without a list
   * view; false for a URI nothing matches once a view restricts the lists.
   */
  followable(uri: string, caller: ListCaller): boolean
}
