// The HTTP request of one tool call: the path template filled in (path.ts), the query string,
// header and cookie parameters, and the body in the operation's media type (body.ts), all from
// arguments that already passed the tool's inputSchema. What the caller's arguments set is kept
// apart from what the server adds (credentials, configured headers): headers.ts puts them in
// their order of precedence.

import type { FormData } from 'undici'
import { joinUrl } from '../document/servers.js'
import type { ArgumentPlan } from '../tools/input-schema.js'
import type { Operation } from '../tools/operations.js'
import { type BodyPlan, encodeBody } from './body.js'
import type { FileAccess } from './files.js'
import { expandPath, type PathTemplate, RequestRefused } from './path.js'
import { cookiePairs, headerValue, queryPairs } from './serialize.js'

/** What a call needs of its operation, worked out once at load. */
export interface PreparedOperation {
  operation: Operation
  plan: ArgumentPlan
  path: PathTemplate
  body: BodyPlan | undefined
  /** `GET /pets/{petId}`, for messages. */
  where: string
}

export interface HttpRequest {
  method: string
  url: URL
  /** Headers the server adds (credentials); headers.ts merges the rest in. */
  headers: Record<string, string>
  /** Header parameters from the caller's arguments, lower-cased. */
  parameterHeaders: Record<string, string>
  contentType: string | undefined
  body: string | Uint8Array | FormData | undefined
  /** Query pairs added after the parameters (credentials), kept apart so messages never show them. */
  secretQuery: string[]
  cookies: string[]
}

type Args = Record<string, unknown>

function bodyValue(plan: ArgumentPlan, args: Args): unknown {
  const body = plan.body
  if (body === undefined) return undefined
  if (body.kind === 'whole') return args[body.argument]
  const parameters = new Set(plan.parameters.map((entry) => entry.argument))
  const value: Args = {}
  let any = false
  for (const [name, item] of Object.entries(args)) {
    if (item === undefined || parameters.has(name)) continue
    if (!body.rest && !body.properties.includes(name)) continue
    value[name] = item
    any = true
  }
  return any ? value : undefined
}

export async function buildRequest(
  prepared: PreparedOperation,
  args: Args,
  base: URL,
  files: FileAccess | undefined,
): Promise<HttpRequest> {
  const query: string[] = []
  const parameterHeaders: Record<string, string> = {}
  const cookies: string[] = []
  for (const { argument, parameter } of prepared.plan.parameters) {
    let value = args[argument]
    if (value === undefined || parameter.in === 'path') continue
    if (parameter.json) value = JSON.stringify(value)
    switch (parameter.in) {
      case 'query': {
        const pairs = queryPairs(
          parameter.name,
          value,
          parameter.style,
          parameter.explode,
          parameter.allowReserved,
        )
        if (pairs !== '') query.push(pairs)
        break
      }
      case 'header':
        parameterHeaders[parameter.name.toLowerCase()] = headerValue(value, parameter.explode)
        break
      case 'cookie':
        cookies.push(cookiePairs(parameter.name, value, parameter.explode))
        break
    }
  }
  const path = expandPath(prepared.path, args)
  const url = joinUrl(base, path)
  const prefix = base.pathname.replace(/\/+$/, '')
  if (url.origin !== base.origin || !url.pathname.startsWith(`${prefix}/`)) {
    throw new RequestRefused(
      `${prepared.where}: the arguments would send the request elsewhere; nothing was sent`,
    )
  }
  if (query.length > 0) url.search = `?${query.join('&')}`
  let body: HttpRequest['body']
  let contentType: string | undefined
  const value = bodyValue(prepared.plan, args)
  if (prepared.body !== undefined && value !== undefined) {
    ;({ body, contentType } = await encodeBody(prepared.body, value, files))
  }
  return {
    method: prepared.operation.method,
    url,
    headers: {},
    parameterHeaders,
    contentType,
    body,
    secretQuery: [],
    cookies,
  }
}
