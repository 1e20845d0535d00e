// The page's side of the ext-apps protocol that needs no component state: the messages' shape,
// what the workspace's /app/open answers, and the ui/initialize result (loaded with the view).

import type { Tool } from '../types.ts'

export type Message = {
  jsonrpc?: string
  id?: string | number
  method?: string
  params?: Record<string, unknown>
} & Record<string, unknown>

/** What `/api/servers/:id/app/open` answers. */
export interface Opened {
  ok: boolean
  uri: string
  sandboxOrigin: string
  proxyUrl: string
  view: string
  csp: string
  allow: string
  /** The domains and permissions the view declared, as the ext-apps types have them. */
  declared: { csp: Record<string, string[]>; permissions: string[] }
  warnings: string[]
  prefersBorder: boolean
  error?: { code: string; message: string }
}

export interface Violation {
  directive: string
  blockedURI: string
}

/** The ext-apps protocol version answered when the view names none. */
const protocolVersion = '2026-01-26'

/** The answer to `ui/initialize`: what this host does, and its context (theme, locale, size, the tool). */
export function initializeResult(
  params: Record<string, unknown>,
  opened: Opened,
  tool: Tool,
  width: number,
): Record<string, unknown> {
  return {
    protocolVersion: typeof params.protocolVersion === 'string' ? params.protocolVersion : protocolVersion,
    hostInfo: { name: 'mcp-kit ui', version: '1' },
    hostCapabilities: {
      openLinks: {},
      serverTools: {},
      serverResources: {},
      logging: {},
      message: { text: {} },
      updateModelContext: { text: {} },
      sandbox: {
        csp: opened.declared.csp,
        permissions: Object.fromEntries(opened.declared.permissions.map((name) => [name, {}])),
      },
    },
    hostContext: {
      theme: matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light',
      displayMode: 'inline',
      availableDisplayModes: ['inline'],
      containerDimensions: { maxHeight: 2000, width },
      locale: navigator.language,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      platform: 'web',
      toolInfo: { tool },
    },
  }
}
