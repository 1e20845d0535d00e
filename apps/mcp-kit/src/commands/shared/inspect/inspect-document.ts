// The JSON document `mcp-kit inspect --format json` prints: one stable shape for scripts.

import type { Prompt, Resource, ResourceTemplate, Session, Tool } from '@mcp-kit/client'
import type { AppEntry } from '../../../apps/collect-apps.js'

export interface InspectDocument {
  reference: string
  server: { name: string; version: string; title?: string }
  protocolVersion: string
  /** `modern` (2026-07-28, stateless) or `legacy` (an initialized 2025-era session). */
  era: string
  /** 2026-07-28 cache hints by method: how long results stay fresh, and who may share them. */
  cacheHints?: Record<string, { ttlMs: number; scope: string }>
  transport: string
  launch: string
  capabilities: Record<string, unknown>
  instructions?: string
  schemaHash: string
  /**
   * How big the tools list is, as a model would be given it: the bytes of its JSON (the tools of
   * every page together) and an estimate of its tokens, bytes ÷ 4.
   */
  toolsListSize: { bytes: number; approximateTokens: number }
  tools: Tool[]
  resources: Resource[]
  resourceTemplates: ResourceTemplate[]
  prompts: Prompt[]
  errors?: Array<{ list: string; code: string; message: string }>
  /** MCP Apps: tools with a `ui://` view, its CSP, permissions and an audit (only when there are some). */
  apps?: AppEntry[]
}

type ListName = 'tools' | 'resources' | 'resourceTemplates' | 'prompts'

// A common rule of thumb for English and JSON with today's tokenizers; said wherever it is shown.
const bytesPerToken = 4

/** The size of `{ "tools": [...] }` as JSON, and its tokens estimated as bytes ÷ 4. */
function listSize(tools: readonly Tool[]): InspectDocument['toolsListSize'] {
  const bytes = Buffer.byteLength(JSON.stringify({ tools }))
  return { bytes, approximateTokens: Math.round(bytes / bytesPerToken) }
}

/** How long inspect waits for resource templates before taking them as none. */
const templatesTimeoutMs = 5_000

/** Lists everything the server advertises, concurrently; a failing list is reported, not fatal. */
export async function collectInspectDocument(
  session: Session,
  reference: string,
  launch: string,
): Promise<InspectDocument> {
  const capabilities = session.capabilities
  const errors: NonNullable<InspectDocument['errors']> = []
  const attempt = async <T>(list: ListName, advertised: boolean, run: () => Promise<T[]>): Promise<T[]> => {
    if (!advertised) return []
    try {
      return await run()
    } catch (error) {
      const failure = error as { code?: string; message?: string }
      // Cancellation and timeouts are the command's failure, not one list's (but for templates).
      const templatesTimedOut = list === 'resourceTemplates' && failure.code === 'timeout'
      if (
        failure.code === 'cancelled' ||
        (failure.code === 'timeout' && !templatesTimedOut) ||
        failure.code === 'connect_failed'
      )
        throw error
      // Many servers with resources have no templates and answer with an error ("method not found",
      // or any code a hand-written server picks): that is an empty list.
      if (
        list === 'resourceTemplates' &&
        (typeof (error as { details?: { rpcCode?: number } }).details?.rpcCode === 'number' ||
          templatesTimedOut)
      )
        return []
      errors.push({ list, code: failure.code ?? 'internal', message: failure.message ?? String(error) })
      return []
    }
  }
  const [tools, resources, resourceTemplates, prompts] = await Promise.all([
    attempt('tools', capabilities.tools !== undefined, () => session.listTools()),
    attempt('resources', capabilities.resources !== undefined, () => session.listResources()),
    // Bounded: some hand-written servers never answer a method they don't have.
    attempt('resourceTemplates', capabilities.resources !== undefined, () =>
      session.listResourceTemplates({ timeoutMs: templatesTimeoutMs }),
    ),
    attempt('prompts', capabilities.prompts !== undefined, () => session.listPrompts()),
  ])
  const { hashTools } = await import('@mcp-kit/schema')
  const { name, version, title } = session.serverInfo
  const document: InspectDocument = {
    reference,
    server: title === undefined ? { name, version } : { name, version, title },
    protocolVersion: session.protocolVersion,
    era: session.era,
    transport: session.transportKind,
    launch,
    capabilities: capabilities as Record<string, unknown>,
    schemaHash: hashTools(tools),
    toolsListSize: listSize(tools),
    tools,
    resources,
    resourceTemplates,
    prompts,
  }
  if (session.cacheHints.size > 0) document.cacheHints = Object.fromEntries(session.cacheHints)
  if (session.instructions) document.instructions = session.instructions
  if (errors.length > 0) document.errors = errors
  const { collectApps } = await import('../../../apps/collect-apps.js')
  const apps = await collectApps(session, tools)
  if (apps.length > 0) document.apps = apps
  return document
}
