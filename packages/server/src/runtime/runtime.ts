// The runtime executes a registry (the "embedded runtime"). The transports call it for every
// request, and applications can call it in-process, so both paths give the same results,
// errors and traces. This module assembles it: the calls (calls.ts: validation, the
// resource cache, error mapping, traces) run in the transport's context or, in-process, in one
// from embedded-context.ts; the lists are cached until the registry changes; completions ask the
// registry's completers. Its types are in types.ts.

import type {
  Prompt,
  Resource,
  ResourceTemplateType as ResourceTemplate,
  Tool,
} from '@modelcontextprotocol/server'
import { ServerError } from '../errors.js'
import type { ToolDefinition, ToolRegistry } from '../registry/registry.js'
import { createCalls } from './calls.js'
import { embeddedContext } from './embedded-context.js'
import { createResourceCache, type ResourceCache } from './resource-cache.js'
import type { Runtime, RuntimeInternals, RuntimeOptions } from './types.js'

export type * from './types.js'

const internalsKey = Symbol('mcp-kit.runtime-internals')
const maximumCompletionValues = 100

export function runtimeInternals(runtime: Runtime): RuntimeInternals {
  const internals = (runtime as unknown as Record<symbol, RuntimeInternals | undefined>)[internalsKey]
  if (internals === undefined) throw new ServerError('internal', 'not a runtime from createRuntime()')
  return internals
}

function listedTool(tool: ToolDefinition): Tool {
  const listed: Tool = {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool['inputSchema'],
  }
  if (tool.title !== undefined) listed.title = tool.title
  if (tool.outputSchema !== undefined) listed.outputSchema = tool.outputSchema as Tool['outputSchema']
  if (tool.annotations !== undefined) listed.annotations = tool.annotations
  if (tool.icons !== undefined) listed.icons = tool.icons
  if (tool._meta !== undefined) listed._meta = tool._meta
  return listed
}

function withoutUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as Array<keyof T>) if (value[key] === undefined) delete value[key]
  return value
}

/** Executes a registry in-process, with the validation, results and errors of a served one. */
export function createRuntime(registry: ToolRegistry, options: RuntimeOptions = {}): Runtime {
  const cache: ResourceCache = createResourceCache(options.now ?? Date.now)
  let tools: Tool[] | undefined
  let resources: Resource[] | undefined
  let templates: ResourceTemplate[] | undefined
  let prompts: Prompt[] | undefined
  registry.onChange((event) => {
    if (event.type === 'resource_updated') cache.invalidate(event.uri)
    else if (event.list === 'tools') tools = undefined
    else if (event.list === 'resources') {
      resources = undefined
      templates = undefined
    } else prompts = undefined
  })

  const internals: RuntimeInternals = createCalls(registry, options, cache)
  const { callTool, readResource, getPrompt } = internals

  const runtime: Runtime = {
    registry,
    callTool: (name, args = {}, callOptions = {}) => callTool(name, args, embeddedContext(callOptions)),
    readResource: (uri, callOptions = {}) => readResource(uri, embeddedContext(callOptions)),
    getPrompt: (name, args = {}, callOptions = {}) => getPrompt(name, args, embeddedContext(callOptions)),
    async complete(reference, argument, contextArguments = {}) {
      let completer: ((value: string, context: { arguments: Record<string, string> }) => unknown) | undefined
      if (reference.type === 'ref/prompt') {
        const prompt = registry.prompts.get(reference.name)
        if (prompt === undefined) {
          throw new ServerError('prompt_not_found', `Unknown prompt: ${reference.name}`, {
            details: { prompt: reference.name },
          })
        }
        completer = prompt.arguments?.find((candidate) => candidate.name === argument.name)?.complete
      } else {
        const template = registry.resourceTemplates.get(reference.uri)
        if (template === undefined && !registry.resources.has(reference.uri)) {
          throw new ServerError('resource_not_found', `Resource template not found: ${reference.uri}`, {
            details: { uri: reference.uri },
          })
        }
        completer = template?.complete?.[argument.name]
      }
      if (completer === undefined) return { values: [], total: 0, hasMore: false }
      const values = await completer(argument.value, { arguments: contextArguments })
      if (!Array.isArray(values)) return { values: [], total: 0, hasMore: false }
      const strings = values.filter((value): value is string => typeof value === 'string')
      return {
        values: strings.slice(0, maximumCompletionValues),
        total: strings.length,
        hasMore: strings.length > maximumCompletionValues,
      }
    },
    listTools() {
      tools ??= [...registry.tools.values()].map(listedTool)
      return tools
    },
    listResources() {
      resources ??= [...registry.resources.values()].map(
        ({ uri, name, title, description, mimeType, size, annotations, icons, _meta }) =>
          withoutUndefined({ uri, name, title, description, mimeType, size, annotations, icons, _meta }),
      )
      return resources
    },
    listResourceTemplates() {
      templates ??= [...registry.resourceTemplates.values()].map(
        ({ uriTemplate, name, title, description, mimeType, annotations, icons, _meta }) =>
          withoutUndefined({ uriTemplate, name, title, description, mimeType, annotations, icons, _meta }),
      )
      return templates
    },
    listPrompts() {
      prompts ??= [...registry.prompts.values()].map(
        ({ name, title, description, arguments: promptArguments, icons, _meta }) =>
          withoutUndefined({
            name,
            title,
            description,
            arguments: promptArguments?.map(
              ({ name: argumentName, title: argumentTitle, description: text, required }) =>
                withoutUndefined({ name: argumentName, title: argumentTitle, description: text, required }),
            ),
            icons,
            _meta,
          }),
      )
      return prompts
    },
  }
  Object.defineProperty(runtime, internalsKey, { value: internals })
  return runtime
}
