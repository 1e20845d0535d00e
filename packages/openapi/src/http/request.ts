// The HTTP request of one tool call: the path template filled in, the query string, header and
// cookie parameters, and the body in the operation's media type (JSON, a form, multipart or
// text), all from arguments that already passed the tool's inputSchema.

import { FormData } from 'undici'
import { joinUrl } from '../document/servers.js'
import type { ArgumentPlan } from '../tools/input-schema.js'
import type { Operation } from '../tools/operations.js'
import { cookiePairs, encode, headerValue, pathValue, queryPairs } from './serialize.js'

export interface HttpRequest {
  method: string
  url: URL
  headers: Record<string, string>
  body: string | FormData | undefined
  /** Query pairs added after the parameters (credentials), kept apart so messages never show them. */
  secretQuery: string[]
  cookies: string[]
}

type Args = Record<string, unknown>

function formText(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)
}

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

function encodeBody(mediaType: string, value: unknown): string | FormData {
  if (/^application\/x-www-form-urlencoded\b/i.test(mediaType)) {
    const pairs: string[] = []
    for (const [name, item] of Object.entries((value ?? {}) as Args)) {
      if (item === undefined) continue
      for (const one of Array.isArray(item) ? item : [item])
        pairs.push(`${encode(name)}=${encode(formText(one))}`)
    }
    return pairs.join('&')
  }
  if (/^multipart\/form-data\b/i.test(mediaType)) {
    const form = new FormData()
    for (const [name, item] of Object.entries((value ?? {}) as Args)) {
      if (item === undefined) continue
      for (const one of Array.isArray(item) ? item : [item]) form.append(name, formText(one))
    }
    return form
  }
  if (/^text\//i.test(mediaType) && typeof value === 'string') return value
  return JSON.stringify(value)
}

export function buildRequest(operation: Operation, plan: ArgumentPlan, args: Args, base: URL): HttpRequest {
  let path = operation.path
  const query: string[] = []
  const headers: Record<string, string> = {}
  const cookies: string[] = []
  for (const { argument, parameter } of plan.parameters) {
    let value = args[argument]
    if (value === undefined) continue
    if (parameter.json) value = JSON.stringify(value)
    switch (parameter.in) {
      case 'path':
        path = path
          .split(`{${parameter.name}}`)
          .join(pathValue(parameter.name, value, parameter.style, parameter.explode))
        break
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
        headers[parameter.name.toLowerCase()] = headerValue(value, parameter.explode)
        break
      case 'cookie':
        cookies.push(cookiePairs(parameter.name, value, parameter.explode))
        break
    }
  }
  const url = joinUrl(base, path)
  if (query.length > 0) url.search = `?${query.join('&')}`
  let body: HttpRequest['body']
  const value = bodyValue(plan, args)
  if (operation.body !== undefined && value !== undefined) {
    body = encodeBody(operation.body.mediaType, value)
    // undici sets multipart's boundary itself.
    if (typeof body === 'string') headers['content-type'] = operation.body.mediaType
  }
  headers.accept ??= 'application/json, */*;q=0.8'
  return { method: operation.method, url, headers, body, secretQuery: [], cookies }
}
