// Reading an OpenAPI document: a URL, a file (JSON or YAML) or an object, every `$ref` resolved by
// @readme/openapi-parser (components, and relative files beside a file). A document from a URL is
// fetched here, since the parser refuses loopback and private hosts, where the APIs people wrap
// often are; what it refers to outside itself must then be an absolute URL on a public host (the
// parser's own rule), and never a local file. Recursive schemas keep their `$ref` (see
// schema/json-schema.ts). Only OpenAPI 3.0 and 3.1 are taken: a Swagger 2.0 document is refused,
// saying how to convert it.

import { existsSync } from 'node:fs'
import { isAbsolute, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { networkReason, OpenApiError } from '../errors.js'
import { cleanText } from '../schema/clean-text.js'
import { readDocumentFile } from './document-file.js'
import { hasOnlyLocalReferences, localDereferencer } from './local-references.js'

export interface OpenApiDocument {
  /** The document with its `$ref`s resolved. */
  readonly spec: Readonly<Record<string, unknown>>
  /** Its `openapi` version, e.g. `3.0.3` or `3.1.0`. */
  readonly version: string
  /** `info.title`, without control characters. */
  readonly title: string
  /** Where it was read from: a URL or an absolute path; undefined for an object. */
  readonly source: string | undefined
}

export interface LoadOptions {
  /** Where a relative file path starts (default `process.cwd()`). */
  cwd?: string
  /** How long fetching the document (and each file it refers to) may take, in ms (default 10 s). */
  timeoutMs?: number
}

function locate(source: string, cwd: string): { source: string; kind: 'url' | 'file' } {
  if (/^https?:\/\//i.test(source)) return { source, kind: 'url' }
  if (/^file:\/\//i.test(source)) return { source: fileURLToPath(source), kind: 'file' }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source)) {
    throw new OpenApiError('invalid_spec', `${source}: an OpenAPI document is read from http(s) or a file`)
  }
  return { source: isAbsolute(source) ? source : resolve(cwd, source), kind: 'file' }
}

const maximumDocumentBytes = 32 * 1024 * 1024

/** The document at `url`, parsed (JSON or YAML). */
async function fetchDocument(url: string, timeoutMs: number): Promise<unknown> {
  let text: string
  try {
    const response = await fetch(url, {
      headers: { accept: 'application/json, application/yaml;q=0.9, */*;q=0.5' },
      signal: AbortSignal.timeout(timeoutMs),
    })
    if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`.trim())
    if (Number(response.headers.get('content-length') ?? 0) > maximumDocumentBytes) {
      throw new Error(`larger than ${maximumDocumentBytes} bytes`)
    }
    text = await response.text()
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause
    const reason =
      (error as Error).name === 'TimeoutError'
        ? `no answer within ${timeoutMs / 1000} s`
        : networkReason(cause instanceof Error ? cause : error)
    throw new OpenApiError('invalid_spec', `cannot fetch ${url}: ${reason}`, {
      cause: error,
      details: { unreachable: true },
    })
  }
  try {
    return /^\s*[{[]/.test(text) ? JSON.parse(text) : (await import('yaml')).parse(text)
  } catch (error) {
    throw new OpenApiError(
      'invalid_spec',
      `${url} is neither JSON nor YAML: ${(error as Error).message.split('\n')[0]}`,
      {
        cause: error,
      },
    )
  }
}

/** Reads, parses and dereferences an OpenAPI 3.x document. Fails with OpenApiError `invalid_spec`. */
export async function loadOpenApi(
  input: string | Record<string, unknown>,
  options: LoadOptions = {},
): Promise<OpenApiDocument> {
  const located = typeof input === 'string' ? locate(input, options.cwd ?? process.cwd()) : undefined
  const named = located?.source ?? 'the document'
  if (located?.kind === 'file' && !existsSync(located.source)) {
    throw new OpenApiError('invalid_spec', `${located.source}: no such file`)
  }
  const timeoutMs = options.timeoutMs ?? 10_000
  const api =
    located === undefined
      ? structuredClone(input as Record<string, unknown>)
      : located.kind === 'url'
        ? await fetchDocument(located.source, timeoutMs)
        : located.source
  if (typeof api !== 'string' && (typeof api !== 'object' || api === null || Array.isArray(api))) {
    throw new OpenApiError('invalid_spec', `${named} is not an OpenAPI document (not an object)`)
  }
  // Parsed once: a document whose `$ref`s are all its own is resolved in one pass, without the parser.
  const own = located?.kind === 'file' ? await readDocumentFile(located.source) : api
  const { dereference } = hasOnlyLocalReferences(own)
    ? localDereferencer(own)
    : await import('@readme/openapi-parser')
  let spec: Record<string, unknown>
  try {
    spec = (await dereference(api as never, {
      dereference: { circular: 'ignore' },
      resolve: { file: located?.kind === 'file', http: { timeout: timeoutMs, redirects: 5 } },
    })) as unknown as Record<string, unknown>
  } catch (error) {
    const reason = cleanText((error as Error)?.message ?? String(error)).split('\n')[0]
    throw new OpenApiError('invalid_spec', `cannot read ${named}: ${reason}`, { cause: error })
  }
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) {
    throw new OpenApiError('invalid_spec', `${named} is not an OpenAPI document (not an object)`)
  }
  if (typeof spec.swagger === 'string') {
    throw new OpenApiError(
      'invalid_spec',
      `${named} is a Swagger ${spec.swagger} document; OpenAPI 3.0 and 3.1 are read: convert it first (e.g. npx swagger2openapi ${located?.kind === 'file' ? located.source : 'swagger.json'} -o openapi.json)`,
    )
  }
  const version = typeof spec.openapi === 'string' ? spec.openapi : undefined
  if (version === undefined || !/^3\.[01](\.|$)/.test(version)) {
    throw new OpenApiError(
      'invalid_spec',
      version === undefined
        ? `${named} is not an OpenAPI document (no "openapi" version)`
        : `${named} is OpenAPI ${version}; 3.0 and 3.1 are read`,
    )
  }
  const info = spec.info as { title?: unknown } | undefined
  const title = typeof info?.title === 'string' ? cleanText(info.title) : ''
  return { spec, version, title, source: located?.source }
}
