// The methods both protocol eras share, answered from a runtime: lists, calls, reads, prompts,
// completions. Each takes checked params and a handler context and returns the bare result; the
// edges add what their era wants (resultType, serverInfo, cache hints, error codes). Lists come a
// page at a time (list-pages.ts).

import type { HandlerContext } from '../context.js'
import { ServerError } from '../errors.js'
import {
  callToolParams,
  completeParams,
  getPromptParams,
  optionalCursor,
  requiredString,
} from '../protocol/params.js'
import type { CachedList, ListView } from '../registry/registry.js'
import type { Runtime, RuntimeInternals } from '../runtime/runtime.js'
import type { CompletionReference } from '../runtime/types.js'
import { type ListKind, listPage } from './list-pages.js'

export type MethodHandler = (
  params: Record<string, unknown>,
  context: HandlerContext,
) => Promise<Record<string, unknown>> | Record<string, unknown>

/** One page of a list as a result: `{ [list]: items, nextCursor? }`. */
function paged<T extends object>(
  list: ListKind,
  items: readonly T[],
  key: (item: T) => string,
  params: Record<string, unknown>,
): Record<string, unknown> {
  const page = listPage(list, items, key, optionalCursor(params))
  const result: Record<string, unknown> = { [list]: page.items }
  if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor
  return result
}

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
      (params, context) =>
        paged('tools', seen(runtime.listTools(), 'tools', 'name', context), (tool) => tool.name, params),
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
      (params, context) =>
        paged(
          'resources',
          seen(runtime.listResources(), 'resources', 'uri', context),
          (resource) => resource.uri,
          params,
        ),
    ],
    [
      'resources/templates/list',
      (params, context) =>
        paged(
          'resourceTemplates',
          seen(runtime.listResourceTemplates(), 'resourceTemplates', 'uriTemplate', context),
          (template) => template.uriTemplate,
          params,
        ),
    ],
    [
      'resources/read',
      (params, context) =>
        internals.readResource(requiredString(params, 'uri'), context) as Promise<Record<string, unknown>>,
    ],
    [
      'prompts/list',
      (params, context) =>
        paged(
          'prompts',
          seen(runtime.listPrompts(), 'prompts', 'name', context),
          (prompt) => prompt.name,
          params,
        ),
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
      async (params, context) => {
        const complete = completeParams(params)
        // What the caller does not see is unknown to it here too (the registry's list view).
        const view = runtime.registry.listView(context)
        if (view !== undefined) hiddenReference(complete.ref, view, runtime)
        return {
          completion: await runtime.complete(complete.ref, complete.argument, complete.contextArguments),
        }
      },
    ],
  ])
}

/** Throws as for an unknown prompt or template when the list view hides `ref` from the caller. */
function hiddenReference(ref: CompletionReference, view: ListView, runtime: Runtime): void {
  if (ref.type === 'ref/prompt') {
    if (!view('prompts', ref.name))
      throw new ServerError('prompt_not_found', `Unknown prompt: ${ref.name}`, {
        details: { prompt: ref.name },
      })
    return
  }
  const template = runtime.registry.resourceTemplates.has(ref.uri)
  if (!view(template ? 'resourceTemplates' : 'resources', ref.uri))
    throw new ServerError('resource_not_found', `Resource template not found: ${ref.uri}`, {
      details: { uri: ref.uri },
    })
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
