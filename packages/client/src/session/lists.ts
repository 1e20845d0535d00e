// A session's lists: every page (a repeated cursor or too many pages is a protocol error; the first page's
// cache hint is kept), and the tools list, fetched once, checked and filtered.

import { isRecord } from '@mcp-kit/core'
import type { Tool } from '@modelcontextprotocol/client'
import { ClientError } from '../errors.js'
import { indexParamHeaders } from '../protocol/input-rounds.js'
import { toolIsRepeatable } from '../protocol/repeatable.js'
import type { SessionChannel } from './channel.js'
import { requireArray } from './results.js'
import type { CacheHint, ListOptions, SharedState, ToolFilter } from './types.js'

const maxPages = 1000

/** Applies a tools filter: null = all, [] = none, names = only those. */
export function filterTools<T extends { name: string }>(tools: readonly T[], filter: ToolFilter): T[] {
  if (filter === null) return [...tools]
  const allowed = new Set(filter)
  return tools.filter((tool) => allowed.has(tool.name))
}

export async function listAll<T>(
  channel: SessionChannel,
  hints: Map<string, CacheHint>,
  method: string,
  key: string,
  options: ListOptions = {},
): Promise<T[]> {
  const limit = options.limit ?? Number.POSITIVE_INFINITY
  const pageOptions = options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }
  const items: T[] = []
  const seen = new Set<string>()
  let cursor: string | undefined
  for (let count = 0; count < maxPages; count++) {
    const answer = await channel.request(
      method,
      method,
      cursor === undefined ? undefined : { cursor },
      pageOptions,
    )
    // Tolerated: a hand-written server that answers a list it does not keep with {}, null or a
    // string has nothing to list. A list that is there but is not an array is still refused.
    if (count === 0 && (!isRecord(answer) || answer[key] === undefined)) return items
    const result = requireArray(answer, key, method)
    if (count === 0 && typeof result.ttlMs === 'number') {
      hints.set(method, {
        ttlMs: result.ttlMs,
        scope: typeof result.cacheScope === 'string' ? result.cacheScope : 'private',
      })
    }
    items.push(...(result[key] as T[]))
    const next = result.nextCursor
    if (typeof next !== 'string' || next === '' || items.length >= limit) return items.slice(0, limit)
    if (seen.has(next))
      throw new ClientError(
        'protocol_error',
        `${method}: the server repeated page cursor ${JSON.stringify(next)}`,
      )
    seen.add(next)
    cursor = next
  }
  throw new ClientError('protocol_error', `${method}: more than ${maxPages} pages`)
}

/** All tools (every page), fetched once per session and filtered by the session's tools filter. */
export function cachedTools(channel: SessionChannel, shared: SharedState): Promise<Tool[]> {
  const options = channel.options
  if (options.toolFilter !== null && options.toolFilter.length === 0) return Promise.resolve([])
  if (!shared.tools) {
    const pending = listAll<Tool>(channel, shared.hints, 'tools/list', 'tools').then((listed) => {
      for (const tool of listed) {
        if (typeof tool?.name !== 'string')
          throw new ClientError('protocol_error', 'tools/list: a tool has no name')
      }
      let tools = listed
      if (channel.mirrorsHeaders) {
        // Spec: a tool with invalid x-mcp-header annotations is left out, with a warning.
        const index = indexParamHeaders(listed)
        for (const [name, problem] of index.invalid) {
          options.onDiagnostic?.(`tools/list: leaving out tool '${name}': ${problem}`)
        }
        tools = listed.filter((tool) => !index.invalid.has(tool.name))
        shared.paramHeaders = index
      }
      shared.outputSchemas = new Map(
        tools.filter((tool) => tool.outputSchema).map((tool) => [tool.name, tool.outputSchema]),
      )
      shared.repeatableTools = new Set(tools.filter(toolIsRepeatable).map((tool) => tool.name))
      return filterTools(tools, options.toolFilter)
    })
    pending.catch(() => {
      if (shared.tools === pending) shared.tools = undefined
    })
    shared.tools = pending
  }
  return shared.tools
}

/** One tool by name from the cached list, or undefined. */
export async function findTool(
  channel: SessionChannel,
  shared: SharedState,
  name: string,
): Promise<Tool | undefined> {
  return (await cachedTools(channel, shared)).find((tool) => tool.name === name)
}

/** Forgets the cached tools list (also done on notifications/tools/list_changed). */
export function forgetTools(shared: SharedState): void {
  shared.tools = undefined
  shared.paramHeaders = undefined
  // A changed list may have changed a tool's annotations: none is safe to repeat until listed again.
  shared.repeatableTools = new Set()
}
