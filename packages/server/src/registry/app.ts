// MCP Apps (the io.modelcontextprotocol/ui extension, SEP-1865): defineApp() turns an HTML view,
// its CSP and permissions into the `ui://` resource to register and the `_meta` of its tool.

import { readFileSync } from 'node:fs'
import { refuse } from './checks.js'
import type { ResourceDefinition } from './types.js'

/** The MIME type of an MCP App view (`text/html;profile=mcp-app`). */
const appMimeType = 'text/html;profile=mcp-app'

/** Origins the view may reach, by CSP directive (ext-apps `McpUiResourceCsp`); none by default. */
export interface AppCsp {
  /** fetch/XHR/WebSocket targets (`connect-src`). */
  connectDomains?: readonly string[] | undefined
  /** Images, scripts, styles, fonts and media (`img-src`, `script-src`, `style-src`, `font-src`, `media-src`). */
  resourceDomains?: readonly string[] | undefined
  /** Nested iframes (`frame-src`). */
  frameDomains?: readonly string[] | undefined
  /** `<base href>` targets (`base-uri`). */
  baseUriDomains?: readonly string[] | undefined
}

/** Browser features the view asks for (the iframe's `allow`); a host may refuse them. */
export interface AppPermissions {
  camera?: Record<string, never> | undefined
  microphone?: Record<string, never> | undefined
  geolocation?: Record<string, never> | undefined
  clipboardWrite?: Record<string, never> | undefined
}

/** Who may call the app's tool: the model, the view, or both (the default). */
export type AppVisibility = 'model' | 'app'

/** What `defineApp()` takes: the view (HTML text or a file) and how it may be sandboxed. */
export interface AppDefinition {
  /** The view's resource URI, `ui://…`. */
  uri: `ui://${string}`
  /** The resource's name in `resources/list`. */
  name: string
  title?: string | undefined
  description?: string | undefined
  /** The view as HTML text, or a function giving it at each read. One of `html` and `file`. */
  html?: string | (() => string | Promise<string>) | undefined
  /** A file holding the view's HTML, read at each read (so edits show without a restart). */
  file?: string | URL | undefined
  csp?: AppCsp | undefined
  permissions?: AppPermissions | undefined
  /** A dedicated origin for the view's sandbox, when the host supports one. */
  domain?: string | undefined
  /** Whether the view would like a border drawn around it. */
  prefersBorder?: boolean | undefined
  /** Who may call the tool (the tool's `_meta.ui.visibility`); default both. */
  visibility?: readonly AppVisibility[] | undefined
}

/** What `defineApp()` gives: the resource to register and the `_meta` for the app's tool. */
export interface DefinedApp {
  readonly uri: string
  readonly resource: ResourceDefinition
  readonly toolMeta: { ui: { resourceUri: string; visibility?: AppVisibility[] } }
}

const cspKeys = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const
const permissionKeys = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const

/** Checks an app definition and gives its resource and tool `_meta`; a mistake fails at once, naming it. */
export function defineApp(definition: AppDefinition): DefinedApp {
  const uri = definition?.uri
  if (typeof uri !== 'string' || !/^ui:\/\/[^\s]+$/.test(uri)) {
    refuse(`invalid app URI ${JSON.stringify(uri)}: it must start with 'ui://', e.g. 'ui://weather/view'`)
  }
  const owner = `app '${uri}'`
  if (typeof definition.name !== 'string' || definition.name === '') refuse(`${owner} needs a name`)
  const { html, file } = definition
  if ((html === undefined) === (file === undefined)) refuse(`${owner} needs one of html and file`)
  if (html !== undefined && typeof html !== 'string' && typeof html !== 'function') {
    refuse(`${owner}: html must be a string or a function`)
  }
  if (file !== undefined) {
    try {
      readFileSync(file, 'utf8')
    } catch (error) {
      refuse(`${owner}: cannot read its file ${String(file)}`, error)
    }
  }
  const ui: Record<string, unknown> = {}
  if (definition.csp !== undefined) ui.csp = checkedCsp(owner, definition.csp)
  if (definition.permissions !== undefined) ui.permissions = checkedPermissions(owner, definition.permissions)
  if (definition.domain !== undefined) {
    if (typeof definition.domain !== 'string' || definition.domain === '')
      refuse(`${owner}: domain must be a non-empty string`)
    ui.domain = definition.domain
  }
  if (definition.prefersBorder !== undefined) {
    if (typeof definition.prefersBorder !== 'boolean') refuse(`${owner}: prefersBorder must be a boolean`)
    ui.prefersBorder = definition.prefersBorder
  }
  const meta = { ui }
  const content = async (): Promise<string> => {
    if (file !== undefined) return readFileSync(file, 'utf8')
    return typeof html === 'function' ? await html() : (html as string)
  }
  const resource: ResourceDefinition = {
    uri,
    name: definition.name,
    ...(definition.title === undefined ? {} : { title: definition.title }),
    ...(definition.description === undefined ? {} : { description: definition.description }),
    mimeType: appMimeType,
    _meta: meta,
    async read() {
      return { contents: [{ uri, mimeType: appMimeType, text: await content(), _meta: meta }] }
    },
  }
  const visibility = definition.visibility
  if (visibility !== undefined) {
    if (!Array.isArray(visibility) || visibility.some((entry) => entry !== 'model' && entry !== 'app')) {
      refuse(`${owner}: visibility holds 'model' and/or 'app'`)
    }
  }
  const toolMeta = {
    ui: { resourceUri: uri, ...(visibility === undefined ? {} : { visibility: [...visibility] }) },
  }
  return Object.freeze({ uri, resource, toolMeta })
}

function checkedCsp(owner: string, csp: AppCsp): Record<string, string[]> {
  if (typeof csp !== 'object' || csp === null) refuse(`${owner}: csp must be an object`)
  const checked: Record<string, string[]> = {}
  for (const [key, value] of Object.entries(csp)) {
    if (value === undefined) continue
    if (!(cspKeys as readonly string[]).includes(key))
      refuse(`${owner}: unknown csp key '${key}' (${cspKeys.join(', ')})`)
    if (
      !Array.isArray(value) ||
      value.some((domain) => typeof domain !== 'string' || /[\s;,]/.test(domain) || domain === '')
    ) {
      refuse(`${owner}: csp.${key} must be a list of origins, without blanks, ';' or ','`)
    }
    checked[key] = [...value]
  }
  return checked
}

function checkedPermissions(owner: string, permissions: AppPermissions): Record<string, object> {
  if (typeof permissions !== 'object' || permissions === null)
    refuse(`${owner}: permissions must be an object`)
  const checked: Record<string, object> = {}
  for (const [key, value] of Object.entries(permissions)) {
    if (value === undefined) continue
    if (!(permissionKeys as readonly string[]).includes(key)) {
      refuse(`${owner}: unknown permission '${key}' (${permissionKeys.join(', ')})`)
    }
    checked[key] = {}
  }
  return checked
}
