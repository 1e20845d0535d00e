// The methods both protocol eras share, answered from a runtime: lists, calls, reads, prompts,
// completions. Each takes checked params and a handler context and returns the bare result; the
// edges add what their era wants (resultType, serverInfo, cache hints, error codes).

import type { HandlerContext } from '../context.js'
import {
  callToolParams,
  completeParams,
  getPromptParams,
  optionalCursor,
  requiredString,
} from '../protocol/params.js'
import type { CachedList } from '../registry/registry.js'
import type { Runtime, RuntimeInternals } from '../runtime/runtime.js'

export type MethodHandler = (
  params: Record<string, unknown>,
  context: HandlerContext,
) => Promise<Record<string, unknown>> | Record<string, unknown>

/** The methods of both eras, by name. */
export function sharedMethods(runtime: Runtime, internals: RuntimeInternals): Map<string, MethodHandler> {
  /** A list as the caller sees it (the registry's list view); the cached list itself when unrestricted. */
  const seen = <T extends Record<string, unknown>>(
    items: T[],
    list: CachedList,
    key: string,
    context: HandlerContext,
  ): T[] => {
    const view = runtime.registry.listView(context)
    return view === undefined ? items : items.filter((item) => view(list, item[key] as string))
  }
  return new Map<string, MethodHandler>([
    [
      'tools/list',
      (params, context) => {
        optionalCursor(params)
        return { tools: seen(runtime.listTools(), 'tools', 'name', context) }
      },
    ],
    [
      'tools/call',
      (params, context) => {
        const call = callToolParams(params)
        return internals.callTool(call.name, call.arguments, context) as Promise<Record<string, unknown>>
      },
    ],
    [
      'resources/list',
      (params, context) => {
        optionalCursor(params)
        return { resources: seen(runtime.listResources(), 'resources', 'uri', context) }
      },
    ],
    [
      'resources/templates/list',
      (params, context) => {
        optionalCursor(params)
        return {
          resourceTemplates: seen(
            runtime.listResourceTemplates(),
            'resourceTemplates',
            'uriTemplate',
            context,
          ),
        }
      },
    ],
    [
      'resources/read',
      (params, context) =>
        internals.readResource(requiredString(params, 'uri'), context) as Promise<Record<string, unknown>>,
    ],
    [
      'prompts/list',
      (params, context) => {
        optionalCursor(params)
        return { prompts: seen(runtime.listPrompts(), 'prompts', 'name', context) }
      },
    ],
    [
      'prompts/get',
      (params, context) => {
        const get = getPromptParams(params)
        return internals.getPrompt(get.name, get.arguments, context) as Promise<Record<string, unknown>>
      },
    ],
    [
      'completion/complete',
      async (params) => {
        const complete = completeParams(params)
        return {
          completion: await runtime.complete(complete.ref, complete.argument, complete.contextArguments),
        }
      },
    ],
  ])
}

/** Methods whose 2026-07-28 results carry cache hints (spec: server/utilities/caching). */
export const listMethods: Readonly<Record<string, 'tools' | 'resources' | 'resourceTemplates' | 'prompts'>> =
  {
    'tools/list': 'tools',
    'resources/list': 'resources',
    'resources/templates/list': 'resourceTemplates',
    'prompts/list': 'prompts',
  }

/** Methods that may answer `input_required` (spec: basic/patterns/mrtr "Supported Requests"). */
export const inputRequiredMethods: ReadonlySet<string> = new Set([
  'tools/call',
  'resources/read',
  'prompts/get',
])
