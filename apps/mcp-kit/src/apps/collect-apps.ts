// The MCP Apps a server offers: its tools with `_meta.ui.resourceUri` (or the deprecated flat
// `ui/resourceUri`), each view read once for its MIME type, `_meta.ui` and size, and audited.

import type { Session, Tool } from '@mcp-kit/client'
import { type AppCsp, appMimeType, appPolicy, contentSecurityPolicy, policyWarnings } from './app-policy.js'

export interface AppEntry {
  tool: string
  resourceUri: string
  /** Who may call the tool (`_meta.ui.visibility`), when the server says. */
  visibility?: string[]
  mimeType?: string
  /** The view's HTML size in bytes. */
  bytes?: number
  csp: AppCsp
  permissions: string[]
  domain?: string
  prefersBorder?: boolean
  /** The Content-Security-Policy `mcp-kit ui` applies to the view. */
  appliedCsp: string
  warnings: string[]
  /** Why the view could not be read. */
  error?: string
}

/** The `ui://` URI a tool points at, or undefined. */
export function appResourceUri(tool: Pick<Tool, '_meta'>): string | undefined {
  const meta = tool._meta as Record<string, unknown> | undefined
  const ui = meta?.ui as { resourceUri?: unknown } | undefined
  const uri = typeof ui?.resourceUri === 'string' ? ui.resourceUri : meta?.['ui/resourceUri']
  return typeof uri === 'string' && uri.startsWith('ui://') ? uri : undefined
}

/** What a read of a view gives: its HTML (text, or a base64 blob), MIME type and `_meta.ui`. */
export interface AppView {
  html: string
  mimeType?: string
  ui: unknown
}

/** Reads a view; the first content item with the URI (or the first) is the view. */
export async function readAppView(session: Session, uri: string): Promise<AppView> {
  const result = await session.readResource(uri)
  const contents = (result.contents ?? []) as Array<Record<string, unknown>>
  const item = contents.find((content) => content.uri === uri) ?? contents[0]
  if (item === undefined) throw new Error('the read gave no content')
  const html =
    typeof item.text === 'string'
      ? item.text
      : typeof item.blob === 'string'
        ? Buffer.from(item.blob, 'base64').toString('utf8')
        : ''
  const meta = item._meta as Record<string, unknown> | undefined
  const view: AppView = { html, ui: meta?.ui }
  if (typeof item.mimeType === 'string') view.mimeType = item.mimeType
  return view
}

/** Every app among the tools, each view read (concurrently) and audited. */
export async function collectApps(session: Session, tools: readonly Tool[]): Promise<AppEntry[]> {
  const withApps = tools.flatMap((tool) => {
    const uri = appResourceUri(tool)
    return uri === undefined ? [] : [{ tool, uri }]
  })
  if (withApps.length === 0) return []
  // The listed resources' `_meta.ui`, for servers that put it on the listing only.
  const listed = new Map<string, unknown>()
  if (session.capabilities.resources !== undefined) {
    const resources = await session.listResources().catch(() => [])
    for (const resource of resources)
      listed.set(resource.uri, (resource._meta as { ui?: unknown } | undefined)?.ui)
  }
  return Promise.all(
    withApps.map(async ({ tool, uri }): Promise<AppEntry> => {
      const visibility = ((tool._meta as { ui?: { visibility?: unknown } } | undefined)?.ui?.visibility ??
        undefined) as unknown[] | undefined
      let view: AppView | undefined
      let error: string | undefined
      try {
        view = await readAppView(session, uri)
      } catch (failure) {
        error = (failure as Error)?.message ?? String(failure)
      }
      const ui = view?.ui ?? listed.get(uri)
      const policy = appPolicy(ui)
      const warnings = policyWarnings(policy, ui)
      if (view?.mimeType !== undefined && view.mimeType.replace(/\s/g, '') !== appMimeType) {
        warnings.unshift(`the view's MIME type is ${view.mimeType}, not ${appMimeType}`)
      }
      const record = (typeof ui === 'object' && ui !== null ? ui : {}) as Record<string, unknown>
      const entry: AppEntry = {
        tool: tool.name,
        resourceUri: uri,
        csp: policy.csp,
        permissions: policy.permissions,
        appliedCsp: contentSecurityPolicy(policy.csp),
        warnings,
      }
      if (Array.isArray(visibility))
        entry.visibility = visibility.filter((v): v is string => typeof v === 'string')
      if (view?.mimeType !== undefined) entry.mimeType = view.mimeType
      if (view !== undefined) entry.bytes = Buffer.byteLength(view.html)
      if (typeof record.domain === 'string') entry.domain = record.domain
      if (typeof record.prefersBorder === 'boolean') entry.prefersBorder = record.prefersBorder
      if (error !== undefined) entry.error = error
      return entry
    }),
  )
}
