// The operations of a document, each with what a request needs: its parameters (path-level ones
// merged in, the operation's own winning), the request body's media type and schema, the
// responses and the security requirements that apply to it.

import { isRecord } from '@mcp-kit/core'
import { sealJson } from '@mcp-kit/server/internal'
import type { OpenApiDocument } from '../document/load.js'
import { cleanText } from '../schema/clean-text.js'
import { deepFreeze, frozenCopy, type JsonSchema, toJsonSchema } from '../schema/json-schema.js'

export const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie'

export interface Parameter {
  name: string
  in: ParameterLocation
  required: boolean
  schema: JsonSchema
  style: string
  explode: boolean
  allowReserved: boolean
  /** Sent as JSON text (a parameter described by `content` rather than `schema`). */
  json: boolean
}

export interface RequestBody {
  required: boolean
  mediaType: string
  schema: JsonSchema
}

/** `{ scheme: scopes }` sets, any one of which is enough (`[]`: none needed). */
export type SecurityRequirements = ReadonlyArray<Record<string, readonly string[]>>

export interface Operation {
  method: Uppercase<(typeof methods)[number]>
  path: string
  operationId: string | undefined
  summary: string | undefined
  description: string | undefined
  tags: string[]
  deprecated: boolean
  parameters: Parameter[]
  body: RequestBody | undefined
  responses: Record<string, Record<string, unknown>>
  security: SecurityRequirements
}

type Json = Record<string, unknown>

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? cleanText(value.trim()) : undefined
}

// Header parameters OpenAPI says to ignore: the request's own headers say these.
const ignoredHeaders = new Set(['accept', 'content-type', 'authorization'])

const defaultStyles: Record<ParameterLocation, string> = {
  path: 'simple',
  query: 'form',
  header: 'simple',
  cookie: 'form',
}

// A parameter many operations share (`#/components/parameters/owner`) is made once.
const parameters = new WeakMap<object, Parameter | undefined>()

function parameterOf(raw: unknown): Parameter | undefined {
  if (!isRecord(raw)) return undefined
  if (!parameters.has(raw)) parameters.set(raw, newParameter(raw))
  return parameters.get(raw)
}

function newParameter(raw: Json): Parameter | undefined {
  if (typeof raw.name !== 'string') return undefined
  const location = raw.in
  if (location !== 'path' && location !== 'query' && location !== 'header' && location !== 'cookie') return
  if (location === 'header' && ignoredHeaders.has(raw.name.toLowerCase())) return undefined
  let schema: unknown = raw.schema
  let json = false
  if (schema === undefined && isRecord(raw.content)) {
    const [, media] = Object.entries(raw.content)[0] ?? []
    schema = isRecord(media) ? media.schema : undefined
    json = true
  }
  const shared = toJsonSchema(schema ?? {}, 'request')
  // The parameter's own words go on a copy: the converted schema may be shared (a component).
  const extra: JsonSchema = {}
  const description = text(raw.description)
  if (description !== undefined && shared.description === undefined) extra.description = description
  if (raw.deprecated === true) extra.deprecated = true
  if (raw.example !== undefined && shared.examples === undefined) extra.examples = [frozenCopy(raw.example)]
  const converted = Object.keys(extra).length === 0 ? shared : deepFreeze({ ...shared, ...extra })
  const style = typeof raw.style === 'string' ? raw.style : defaultStyles[location]
  return {
    name: raw.name,
    in: location,
    required: location === 'path' || raw.required === true,
    schema: converted,
    style,
    explode: typeof raw.explode === 'boolean' ? raw.explode : style === 'form',
    allowReserved: raw.allowReserved === true,
    json,
  }
}

const jsonMedia = /^application\/(?:[\w.+-]+\+)?json\b/i
const preferredMedia = [
  (type: string) => jsonMedia.test(type),
  (type: string) => /^application\/x-www-form-urlencoded\b/i.test(type),
  (type: string) => /^multipart\/form-data\b/i.test(type),
  (type: string) => /^text\//i.test(type),
  () => true,
]

/** The media type this tool sends, among those the operation accepts: JSON first. */
function bodyOf(raw: unknown): RequestBody | undefined {
  if (!isRecord(raw) || !isRecord(raw.content)) return undefined
  const types = Object.keys(raw.content)
  for (const accepts of preferredMedia) {
    const mediaType = types.find(accepts)
    if (mediaType === undefined) continue
    const media = raw.content[mediaType]
    const shared = toJsonSchema(isRecord(media) ? (media.schema ?? {}) : {}, 'request')
    const description = text(raw.description)
    const schema =
      description !== undefined && shared.description === undefined
        ? sealJson({ ...shared, description })
        : shared
    return {
      required: raw.required === true,
      mediaType: mediaType === '*/*' ? 'application/json' : mediaType,
      schema,
    }
  }
  return undefined
}

/** Every operation of the document, in document order. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  const paths = document.spec.paths
  if (!isRecord(paths)) return []
  const topSecurity = Array.isArray(document.spec.security) ? (document.spec.security as Json[]) : []
  const operations: Operation[] = []
  for (const [path, item] of Object.entries(paths)) {
    if (!isRecord(item)) continue
    const shared = Array.isArray(item.parameters) ? item.parameters : []
    for (const method of methods) {
      const raw = item[method]
      if (!isRecord(raw)) continue
      const byKey = new Map<string, Parameter>()
      for (const candidate of [...shared, ...(Array.isArray(raw.parameters) ? raw.parameters : [])]) {
        const parameter = parameterOf(candidate)
        if (parameter !== undefined) byKey.set(`${parameter.in}:${parameter.name}`, parameter)
      }
      const security = Array.isArray(raw.security) ? (raw.security as Json[]) : topSecurity
      operations.push({
        method: method.toUpperCase() as Operation['method'],
        path,
        operationId: typeof raw.operationId === 'string' ? raw.operationId : undefined,
        summary: text(raw.summary),
        description: text(raw.description),
        tags: Array.isArray(raw.tags) ? raw.tags.filter((tag): tag is string => typeof tag === 'string') : [],
        deprecated: raw.deprecated === true,
        parameters: [...byKey.values()],
        body: bodyOf(raw.requestBody),
        responses: isRecord(raw.responses) ? (raw.responses as Operation['responses']) : {},
        security: security
          .filter(isRecord)
          .map((requirement) =>
            Object.fromEntries(
              Object.entries(requirement).map(([scheme, scopes]) => [
                scheme,
                Array.isArray(scopes)
                  ? scopes.filter((scope): scope is string => typeof scope === 'string')
                  : [],
              ]),
            ),
          ),
      })
    }
  }
  return operations
}
