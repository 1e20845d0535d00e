// A request body in its media type, as the operation's `encoding` object says: JSON;
// `application/x-www-form-urlencoded` with each property's `style`, `explode` and `allowReserved`
// (Stripe's `metadata` with `deepObject` goes out as `metadata[k]=v`); `multipart/form-data` with
// text parts, JSON parts for objects and file parts; text; and raw bytes for any other type.
// A file argument is base64, or `@name` of a file in the directory the server was given for
// uploads (files.ts); nothing else on the machine can be sent.

import { isRecord } from '@mcp-kit/core'
import type { FormData } from 'undici'
import type { OpenApiDocument } from '../document/load.js'
import type { JsonSchema } from '../schema/json-schema.js'
import type { Operation } from '../tools/operations.js'
import { type FileAccess, fileArgument } from './files.js'
import { queryPairs, scalar } from './serialize.js'

export interface PartEncoding {
  /** `json`: the value as JSON text (a `contentType` of JSON and no `style`). */
  style: string
  explode: boolean
  allowReserved: boolean
  contentType: string | undefined
}

/** How the operation's body is written, worked out at load. */
export interface BodyPlan {
  mediaType: string
  kind: 'json' | 'form' | 'multipart' | 'text' | 'bytes'
  encoding: Record<string, PartEncoding>
  /** Properties (or the whole body, '') that are files: `format: binary` or a non-text `contentMediaType`. */
  files: Set<string>
}

type Json = Record<string, unknown>

function isFileSchema(schema: unknown): boolean {
  if (!isRecord(schema)) return false
  if (schema.type === 'array') return isFileSchema(schema.items)
  if (schema.format === 'binary') return true
  return (
    typeof schema.contentMediaType === 'string' &&
    schema.contentEncoding === undefined &&
    !/^(text\/|application\/(json|xml))/i.test(schema.contentMediaType)
  )
}

/** The body plan of an operation, from its document's `encoding` object and body schema. */
export function bodyPlanOf(document: OpenApiDocument, operation: Operation): BodyPlan | undefined {
  const body = operation.body
  if (body === undefined) return undefined
  const mediaType = body.mediaType
  const kind = /^application\/(?:[\w.+-]+\+)?json\b/i.test(mediaType)
    ? 'json'
    : /^application\/x-www-form-urlencoded\b/i.test(mediaType)
      ? 'form'
      : /^multipart\/form-data\b/i.test(mediaType)
        ? 'multipart'
        : /^text\//i.test(mediaType)
          ? 'text'
          : 'bytes'
  const item = (document.spec.paths as Json | undefined)?.[operation.path] as Json | undefined
  const raw = (item?.[operation.method.toLowerCase()] as Json | undefined)?.requestBody as Json | undefined
  const media = isRecord(raw?.content) ? (raw.content[mediaType] as Json | undefined) : undefined
  const encoding: Record<string, PartEncoding> = {}
  for (const [name, entry] of Object.entries(isRecord(media?.encoding) ? media.encoding : {})) {
    if (!isRecord(entry)) continue
    const contentType = typeof entry.contentType === 'string' ? entry.contentType : undefined
    const style =
      typeof entry.style === 'string'
        ? entry.style
        : contentType !== undefined && /json/i.test(contentType)
          ? 'json'
          : 'form'
    encoding[name] = {
      style,
      explode: typeof entry.explode === 'boolean' ? entry.explode : style === 'form',
      allowReserved: entry.allowReserved === true,
      contentType,
    }
  }
  const files = new Set<string>()
  const schema: JsonSchema = body.schema
  if (kind === 'bytes' || kind === 'multipart') {
    if (kind === 'bytes' && (isFileSchema(schema) || schema.type === undefined || schema.type === 'string'))
      files.add('')
    for (const [name, property] of Object.entries(isRecord(schema.properties) ? schema.properties : {})) {
      if (isFileSchema(property)) files.add(name)
    }
  }
  return { mediaType, kind, encoding, files }
}

const defaultPart: PartEncoding = {
  style: 'form',
  explode: true,
  allowReserved: false,
  contentType: undefined,
}

function formBody(plan: BodyPlan, value: Json): string {
  const pairs: string[] = []
  for (const [name, item] of Object.entries(value)) {
    if (item === undefined) continue
    const part = plan.encoding[name] ?? defaultPart
    if (part.style === 'json') {
      pairs.push(queryPairs(name, JSON.stringify(item), 'form', false, false))
      continue
    }
    const pair = queryPairs(name, item === null ? '' : item, part.style, part.explode, part.allowReserved)
    if (pair !== '') pairs.push(pair)
  }
  return pairs.join('&')
}

/** Text parts of a (possibly deepObject) property: `[name, value]` pairs, names decoded. */
function textParts(name: string, item: unknown, part: PartEncoding): Array<[string, string]> {
  if (part.style === 'deepObject' && (isRecord(item) || Array.isArray(item))) {
    return queryPairs(name, item, 'deepObject', true, false)
      .split('&')
      .filter((pair) => pair !== '')
      .map((pair) => {
        const at = pair.indexOf('=')
        return [decodeURIComponent(pair.slice(0, at)), decodeURIComponent(pair.slice(at + 1))]
      })
  }
  if (Array.isArray(item)) return item.map((one) => [name, scalar(one)])
  return [[name, scalar(item)]]
}

async function multipartBody(plan: BodyPlan, value: Json, files: FileAccess | undefined): Promise<FormData> {
  const { FormData } = await import('undici')
  const form = new FormData()
  for (const [name, item] of Object.entries(value)) {
    if (item === undefined) continue
    const part = plan.encoding[name] ?? defaultPart
    if (plan.files.has(name)) {
      for (const one of Array.isArray(item) ? item : [item]) {
        const file = await fileArgument(name, one, files)
        form.append(
          name,
          new Blob([file.bytes], { type: part.contentType ?? 'application/octet-stream' }),
          file.name,
        )
      }
    } else if ((isRecord(item) && part.style !== 'deepObject') || part.style === 'json') {
      // An object part is JSON unless its encoding says otherwise (OpenAPI's default).
      form.append(name, new Blob([JSON.stringify(item)], { type: part.contentType ?? 'application/json' }))
    } else {
      for (const [field, text] of textParts(name, item, part)) form.append(field, text)
    }
  }
  return form
}

/** The body to send and its Content-Type (undefined for multipart: undici sets the boundary). */
export async function encodeBody(
  plan: BodyPlan,
  value: unknown,
  files: FileAccess | undefined,
): Promise<{ body: string | Uint8Array | FormData; contentType: string | undefined }> {
  switch (plan.kind) {
    case 'form':
      return { body: formBody(plan, isRecord(value) ? value : {}), contentType: plan.mediaType }
    case 'multipart':
      return { body: await multipartBody(plan, isRecord(value) ? value : {}, files), contentType: undefined }
    case 'text':
      return { body: typeof value === 'string' ? value : JSON.stringify(value), contentType: plan.mediaType }
    case 'bytes':
      if (plan.files.has('') && typeof value === 'string') {
        return { body: (await fileArgument('body', value, files)).bytes, contentType: plan.mediaType }
      }
      return { body: typeof value === 'string' ? value : JSON.stringify(value), contentType: plan.mediaType }
    default:
      return { body: JSON.stringify(value), contentType: plan.mediaType }
  }
}
