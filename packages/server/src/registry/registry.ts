// A ToolRegistry holds what a server offers: tools (name + JSON Schema + handler), resources
// (static URIs and URI templates), prompts and their completions. It is plain data plus
// handlers; the runtime and the transports serve it. Every definition is checked when it is
// registered, so a mistake fails at start-up with a message naming it; only compiling a tool's
// schemas waits for its first call (the runtime's), so start-up does not grow with every schema.

import {
  checkHint,
  checkName,
  checkScope,
  checkText,
  checkTtl,
  defaultListHint,
  refuse,
  uriPattern,
} from './checks.js'
import { TemplateMatchers } from './templates.js'
import { prepareTool } from './tool-definition.js'
import type { ToolDefinition } from './tool-types.js'
import type {
  CachedList,
  CacheHint,
  ListCaller,
  ListName,
  ListView,
  PromptDefinition,
  RegistryEvent,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolRegistry,
  ToolRegistryOptions,
} from './types.js'

export type * from './schema-types.js'
export type * from './tool-types.js'
export type * from './types.js'

const registryBrand = Symbol.for('mcp-kit.registry')

/** True for a registry from createToolRegistry() of any copy of this package. */
export function isToolRegistry(value: unknown): value is ToolRegistry {
  return (
    typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[registryBrand] === true
  )
}

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
  const templateMatchers = new TemplateMatchers()
  const prompts = new Map<string, PromptDefinition>()
  const listeners = new Set<(event: RegistryEvent) => void>()
  const watches = new Map<string, { count: number; stop: (() => void) | undefined }>()
  let batched: Set<ListName> | undefined
  let missingTool: ((name: string, signal: AbortSignal) => Promise<void>) | undefined
  let view: ((caller: ListCaller) => ListView | undefined) | undefined
  const changed = (list: ListName): true => {
    if (batched !== undefined) batched.add(list)
    else emit({ type: 'list_changed', list })
    return true
  }
  const emit = (event: RegistryEvent): void => {
    for (const listener of listeners) {
      try {
        listener(event)
      } catch {
        // A failing listener (a closed session) must not break registration or other sessions.
      }
    }
  }

  const serverInfo = Object.freeze(
    Object.fromEntries(
      (['name', 'version', 'instructions'] as const).flatMap((key) => {
        const value = options[key]
        if (value === undefined) return []
        if (typeof value !== 'string' || value === '') refuse(`${key} must be a non-empty string`)
        return [[key, value]]
      }),
    ),
  )
  const registry: ToolRegistry = {
    serverInfo,
    tools,
    resources,
    resourceTemplates,
    prompts,
    tool(definition) {
      const name = (definition as { name?: unknown } | undefined)?.name
      if (typeof name === 'string' && tools.has(name)) refuse(`tool '${name}' is already registered`)
      const tool = prepareTool(definition, options.toJsonSchema)
      tools.set(tool.name, tool)
      changed('tools')
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
      changed('resources')
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
      const frozen = Object.freeze({ ...definition })
      templateMatchers.add(frozen, owner)
      resourceTemplates.set(uriTemplate, frozen)
      changed('resources')
      return registry
    },
    prompt(definition) {
      const candidate = definition as unknown as PromptDefinition
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
      changed('prompts')
      return registry
    },
    findResource(uri) {
      const resource = resources.get(uri)
      if (resource !== undefined) return { uri, resource, variables: {} }
      const best = templateMatchers.match(uri)
      return best === undefined ? undefined : { uri, resource: best.definition, variables: best.variables }
    },
    async resolveTool(name, signal) {
      const wait = missingTool
      if (tools.has(name) || wait === undefined) return tools.get(name)
      // A waiter that fails only means the tool did not come: the call says it is unknown. A tool
      // that needs scopes came after the transport checked them: not for this call.
      await wait(name, signal).catch(() => {})
      const late = tools.get(name)
      return late?.scopes === undefined ? late : undefined
    },
    onMissingTool(wait) {
      missingTool = wait
      return () => {
        if (missingTool === wait) missingTool = undefined
      }
    },
    removeTool(name) {
      return tools.delete(name) && changed('tools')
    },
    removeResource(uri) {
      return resources.delete(uri) && changed('resources')
    },
    removeResourceTemplate(uriTemplate) {
      if (!resourceTemplates.delete(uriTemplate)) return false
      templateMatchers.remove(uriTemplate)
      return changed('resources')
    },
    removePrompt(name) {
      return prompts.delete(name) && changed('prompts')
    },
    batch(change) {
      const outer = batched === undefined
      batched ??= new Set()
      try {
        change()
      } finally {
        if (outer) {
          const lists = batched
          batched = undefined
          for (const list of lists) emit({ type: 'list_changed', list })
        }
      }
    },
    watchResource(uri) {
      let watch = watches.get(uri)
      if (watch === undefined) {
        watch = { count: 0, stop: undefined }
        watches.set(uri, watch)
        try {
          watch.stop = registry.findResource(uri)?.resource.subscribe?.(uri) ?? undefined
        } catch {
          // A hook that fails leaves the subscription without updates; the client still subscribed.
        }
      }
      watch.count += 1
      let done = false
      return () => {
        if (done || watch === undefined) return
        done = true
        watch.count -= 1
        if (watch.count > 0) return
        watches.delete(uri)
        try {
          watch.stop?.()
        } catch {
          // ignored, as above
        }
      }
    },
    resourceUpdated(uri) {
      emit({ type: 'resource_updated', uri })
    },
    listChanged(list) {
      if (list !== 'tools' && list !== 'resources' && list !== 'prompts') {
        refuse(`unknown list '${String(list)}' (tools, resources, prompts)`)
      }
      changed(list)
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
    restrictLists(restriction) {
      view = restriction
      return () => {
        if (view === restriction) view = undefined
      }
    },
    listView(caller) {
      return view?.(caller)
    },
    followable(uri, caller) {
      const seen = view?.(caller)
      if (seen === undefined) return true
      const found = registry.findResource(uri)
      if (found === undefined) return false
      const template = (found.resource as { uriTemplate?: unknown }).uriTemplate
      return typeof template === 'string' ? seen('resourceTemplates', template) : seen('resources', uri)
    },
  }
  Object.defineProperty(registry, registryBrand, { value: true })
  return registry
}
