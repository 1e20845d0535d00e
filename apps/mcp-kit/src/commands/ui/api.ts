// The page's API: JSON over HTTP under /api/, and one event stream. Each route is a line of the
// table below; what they do lives in the workspace, its servers and operations.

import type { IncomingMessage, ServerResponse } from 'node:http'
import { isRecord } from '@mcp-kit/core'
import { CliError, isKitError } from '../../base/errors.js'
import { splitWords } from '../../base/shell-words.js'
import { type Action, cliEquivalent } from './cli-equivalent.js'
import { securityHeaders } from './guards.js'
import { callTool, errorView, getPrompt, readResource, validateForm } from './operations.js'
import type { ServerEntry } from './server-entry.js'
import type { Workspace } from './workspace.js'

// What the first tools list does not need loads when a route first asks for it (`mcp-kit ui`
// starts faster): drift, logins, the gateway panel, MCP App views, collections.
const drift = () => import('./drift.js')
const gateway = () => import('./gateway-status.js')
const logins = () => import('./login.js')
const appViews = () => import('./app-views.js')
const collectionFiles = () => import('./collections.js')

type Body = Record<string, unknown>
type Handler = (context: {
  workspace: Workspace
  body: Body
  entry?: ServerEntry
  id: string
}) => Promise<unknown>

const largestBody = 32 * 1024 * 1024

function send(response: ServerResponse, status: number, value: unknown, type = 'application/json'): void {
  const text = type === 'application/json' ? JSON.stringify(value) : String(value)
  response.writeHead(status, {
    ...securityHeaders,
    'content-type': `${type}; charset=utf-8`,
    'cache-control': 'no-store',
  })
  response.end(text)
}

async function readBody(request: IncomingMessage): Promise<Body> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request) {
    size += (chunk as Buffer).length
    if (size > largestBody) throw new CliError('usage', 'the request is larger than 32 MiB')
    chunks.push(chunk as Buffer)
  }
  if (size === 0) return {}
  const value = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new CliError('usage', 'the request body must be a JSON object')
  return value as Body
}

const text = (value: unknown, name: string): string => {
  if (typeof value !== 'string' || value === '')
    throw new CliError('usage', `'${name}' must be a non-empty string`)
  return value
}
const record = (value: unknown): Record<string, unknown> => (isRecord(value) ? value : {})

function state(workspace: Workspace) {
  const servers = workspace.servers()
  return {
    // The events published before this read: a page that has seen later ones reads again.
    seq: workspace.hub.sequence(),
    servers: servers.map((entry) => entry.view()),
    questions: workspace.questions.pending(),
    roots: workspace.questions.roots(),
    // The connected servers' lists, so that a page just opened shows them without asking again.
    lists: Object.fromEntries(
      servers
        .filter((entry) => entry.state === 'connected')
        .map((entry) => [entry.id, { schemaHash: entry.schemaHash, lists: entry.lists }]),
    ),
  }
}

/** Routes by method and path; `:id` is a server, a call or a question. */
const routes: Record<string, Handler> = {
  'GET /api/state': async ({ workspace }) => state(workspace),
  'GET /api/timeline': async ({ workspace }) => workspace.timeline.rows(),
  'POST /api/timeline/import': async ({ workspace, body }) =>
    workspace.timeline.importTrace(
      text(body.text, 'text'),
      typeof body.name === 'string' ? body.name : 'trace',
    ),
  'POST /api/servers': async ({ workspace, body }) => {
    const given = text(body.target, 'target').trim()
    const words = splitWords(given)
    const source =
      given.startsWith('@') || given.startsWith('mcp+')
        ? { reference: given }
        : { command: words[0] === '--' ? words.slice(1) : words }
    const { entry, connected } = workspace.add(source)
    await connected
    return entry.view()
  },
  'POST /api/servers/import': async ({ workspace, body }) => {
    const { added, skipped } = await workspace.importConfig(text(body.text, 'text'))
    return { added: added.map((entry) => entry.id), skipped }
  },
  'DELETE /api/servers/:id': async ({ workspace, id }) => ({ removed: await workspace.remove(id) }),
  'POST /api/servers/:id/reconnect': async ({ entry }) => {
    await entry?.connect()
    return entry?.view()
  },
  'GET /api/servers/:id/lists': async ({ entry }) => entry?.lists,
  'POST /api/servers/:id/validate': async ({ workspace, entry, body }) =>
    validateForm(entry as ServerEntry, text(body.tool, 'tool'), formOf(body), workspace.args),
  'POST /api/servers/:id/call': async ({ workspace, entry, body }) =>
    callTool(
      entry as ServerEntry,
      { tool: text(body.tool, 'tool'), callId: text(body.callId, 'callId'), ...formOf(body) },
      { hub: workspace.hub, args: workspace.args, running: workspace.running },
    ),
  'POST /api/calls/:id/cancel': async ({ workspace, id }) => {
    const controller = workspace.running.get(id)
    controller?.abort()
    return { cancelled: controller !== undefined }
  },
  'POST /api/servers/:id/read': async ({ entry, body }) =>
    readResource(entry as ServerEntry, text(body.uri, 'uri')),
  'POST /api/servers/:id/prompt': async ({ entry, body }) =>
    getPrompt(entry as ServerEntry, text(body.name, 'name'), record(body.arguments)),
  'POST /api/servers/:id/complete': async ({ entry, body }) => {
    const argument = record(body.argument)
    const context = record(body.context)
    return (entry as ServerEntry).requireSession().complete(
      record(body.ref) as never,
      {
        name: text(argument.name, 'argument.name'),
        value: typeof argument.value === 'string' ? argument.value : '',
      },
      Object.keys(context).length === 0 ? {} : { context: context as never },
    )
  },
  'POST /api/servers/:id/command': async ({ entry, body }) => ({
    command: cliEquivalent(entry as ServerEntry, record(body.action) as unknown as Action),
  }),
  'GET /api/servers/:id/drift': async ({ workspace, entry }) =>
    (await drift()).driftView(entry as ServerEntry, workspace),
  'POST /api/servers/:id/drift/update': async ({ workspace, entry }) =>
    (await drift()).updateProfile(entry as ServerEntry, workspace),
  'GET /api/servers/:id/gateway-status': async ({ workspace, entry }) =>
    (await gateway()).gatewayStatus(entry as ServerEntry, workspace.args),
  'POST /api/servers/:id/login': async ({ workspace, entry }) =>
    (await logins()).login(entry as ServerEntry, workspace),
  'POST /api/servers/:id/app/open': async ({ workspace, entry, body }) =>
    (await appViews()).openAppView(
      entry as ServerEntry,
      workspace,
      text(body.tool, 'tool'),
      text(body.hostOrigin, 'hostOrigin'),
    ),
  'POST /api/servers/:id/app/call': async ({ entry, body }) =>
    (await appViews()).callFromView(entry as ServerEntry, text(body.name, 'name'), record(body.arguments)),
  'POST /api/servers/:id/app/record': async ({ workspace, entry, body }) => {
    ;(await appViews()).recordAppMessage(entry as ServerEntry, workspace, body.direction, body.message)
    return { recorded: true }
  },
  'POST /api/questions/:id': async ({ workspace, id, body }) => {
    const question = workspace.questions.pending().find((each) => each.id === id)
    const answer = record(body.answer)
    const schema = question?.params.requestedSchema
    if (question?.kind === 'elicit' && answer.action === 'accept' && schema !== undefined) {
      // The answer is checked as the CLI checks one given on its terminal, before the server sees it.
      const { formatProblems, validateArguments } = await import('@mcp-kit/schema')
      const check = validateArguments(answer.content ?? {}, schema)
      if (!check.ok) {
        throw new CliError(
          'invalid_arguments',
          `the answer does not fit the form: ${formatProblems(check.errors)}`,
          {
            details: { problems: check.errors },
          },
        )
      }
    }
    const answered =
      typeof body.refuse === 'string'
        ? workspace.questions.refuse(id, body.refuse)
        : workspace.questions.answer(id, answer)
    return { answered }
  },
  // The page asks on load; the servers starting then come first (reading files costs CPU they need).
  'GET /api/collections': async ({ workspace }) => {
    await workspace.settled(3000)
    return (await collectionFiles()).listCollections(workspace.collections)
  },
  'POST /api/collections/save': async ({ workspace, body }) => {
    const entry = workspace.get(text(body.serverId, 'serverId'))
    if (entry === undefined) throw new CliError('usage', `no server ${String(body.serverId)}`)
    return (await collectionFiles()).saveCall(workspace.collections, entry, body)
  },
  'POST /api/collections/remove-step': async ({ workspace, body }) =>
    (await collectionFiles()).removeSavedStep(workspace.collections, body),
  'POST /api/collections/expect': async ({ workspace, body }) =>
    (await collectionFiles()).changeCheck(workspace.collections, body),
  'POST /api/collections/run': async ({ workspace, body }) =>
    (await collectionFiles()).runSaved(workspace.collections, body),
  'POST /api/roots': async ({ workspace, body }) =>
    workspace.questions.setRoots(
      Array.isArray(body.paths) ? body.paths.filter((path) => typeof path === 'string') : [],
    ),
}

function formOf(body: Body) {
  return {
    strings: record(body.strings) as Record<string, string | string[]>,
    json: record(body.json),
  }
}

function match(method: string, path: string): { handler: Handler; id: string } | undefined {
  const exact = routes[`${method} ${path}`]
  if (exact !== undefined) return { handler: exact, id: '' }
  const parts = path.split('/')
  // /api/<kind>/<id>[/…]
  const id = parts[3]
  if (id === undefined || id === '') return undefined
  const pattern = [...parts.slice(0, 3), ':id', ...parts.slice(4)].join('/')
  const handler = routes[`${method} ${pattern}`]
  return handler === undefined ? undefined : { handler, id: decodeURIComponent(id) }
}

export async function handleApi(
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  workspace: Workspace,
): Promise<void> {
  const method = request.method ?? 'GET'
  if (method === 'GET' && url.pathname === '/api/events') {
    workspace.hub.attach(response)
    return
  }
  if (method === 'GET' && url.pathname === '/api/timeline.ndjson') {
    response.writeHead(200, {
      ...securityHeaders,
      'content-type': 'application/x-ndjson; charset=utf-8',
      'content-disposition': 'attachment; filename="mcp-kit-ui-trace.ndjson"',
      'cache-control': 'no-store',
    })
    response.end(workspace.timeline.exportTrace())
    return
  }
  const found = match(method, url.pathname)
  if (found === undefined) {
    send(response, 404, { error: { code: 'not_found', message: `no route ${method} ${url.pathname}` } })
    return
  }
  try {
    const body = method === 'POST' ? await readBody(request) : {}
    const needsServer = url.pathname.startsWith('/api/servers/') && found.id !== '' && found.id !== 'import'
    const entry = needsServer ? workspace.get(found.id) : undefined
    if (needsServer && entry === undefined) {
      send(response, 404, { error: { code: 'not_found', message: `no server ${found.id}` } })
      return
    }
    send(response, 200, await found.handler({ workspace, body, id: found.id, ...(entry ? { entry } : {}) }))
  } catch (error) {
    const status =
      isKitError(error) && (error.code === 'usage' || error.code === 'invalid_arguments') ? 400 : 500
    send(response, error instanceof SyntaxError ? 400 : status, { error: errorView(error) })
  }
}
