// What the page asks about MCP Apps: a tool's view opened (read through the server's session,
// its policy built and audited, registered with the sandbox), the view's tool calls made through
// the same session (only tools the view may call), and every ui/* message put on the timeline.

import { allowAttribute, appPolicy, contentSecurityPolicy, policyWarnings } from '../../apps/app-policy.js'
import { appResourceUri, readAppView } from '../../apps/collect-apps.js'
import { CliError } from '../../base/errors.js'
import type { AppSandbox } from './app-sandbox.js'
import { errorView } from './operations.js'
import type { ServerEntry } from './server-entry.js'
import type { Workspace } from './workspace.js'

function sandboxOf(workspace: Workspace): AppSandbox {
  if (workspace.sandbox === undefined) throw new CliError('usage', 'this workspace has no app sandbox')
  return workspace.sandbox
}

/** Reads the tool's view and registers it: what the page needs to frame it, and the audit. */
export async function openAppView(
  entry: ServerEntry,
  workspace: Workspace,
  tool: string,
  hostOrigin: string,
): Promise<Record<string, unknown>> {
  const found = entry.lists.tools.find((each) => each.name === tool)
  const uri = found === undefined ? undefined : appResourceUri(found)
  if (uri === undefined) throw new CliError('usage', `tool '${tool}' has no app (_meta.ui.resourceUri)`)
  const sandbox = sandboxOf(workspace)
  try {
    const view = await readAppView(entry.requireSession(), uri)
    const policy = appPolicy(view.ui)
    const csp = contentSecurityPolicy(policy.csp)
    return {
      ok: true,
      uri,
      sandboxOrigin: sandbox.origin,
      proxyUrl: sandbox.proxyUrl(hostOrigin),
      view: sandbox.register(view.html, csp),
      csp,
      declared: { csp: policy.csp, permissions: policy.permissions },
      allow: allowAttribute(policy.permissions),
      warnings: policyWarnings(policy, view.ui),
      prefersBorder: (view.ui as { prefersBorder?: unknown } | undefined)?.prefersBorder === true,
    }
  } catch (error) {
    return { ok: false, uri, error: errorView(error) }
  }
}

/** A view's `tools/call`: only to a tool of this server the view may call (visibility has `app`). */
export async function callFromView(
  entry: ServerEntry,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const tool = entry.lists.tools.find((each) => each.name === name)
  const visibility = (tool?._meta as { ui?: { visibility?: unknown } } | undefined)?.ui?.visibility
  if (tool === undefined)
    return { ok: false, error: { code: 'invalid_arguments', message: `unknown tool '${name}'` } }
  if (Array.isArray(visibility) && !visibility.includes('app'))
    return {
      ok: false,
      error: { code: 'invalid_arguments', message: `tool '${name}' is not visible to apps` },
    }
  try {
    return { ok: true, result: await entry.requireSession().callTool(name, args) }
  } catch (error) {
    return { ok: false, error: errorView(error) }
  }
}

/** Puts a ui/* message between the page and a view on the timeline (`sent`: to the view). */
export function recordAppMessage(
  entry: ServerEntry,
  workspace: Workspace,
  direction: unknown,
  message: unknown,
): void {
  if (direction !== 'sent' && direction !== 'received')
    throw new CliError('usage', "'direction' must be 'sent' or 'received'")
  if (typeof message !== 'object' || message === null || Array.isArray(message))
    throw new CliError('usage', "'message' must be a JSON-RPC message")
  workspace.timeline.record(entry.id, entry.traceName(), direction, message, 'app')
}
