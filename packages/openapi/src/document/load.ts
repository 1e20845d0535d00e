// Reading an OpenAPI document: a URL, a file (JSON or YAML) or an object, parsed once. A document
// whose `$ref`s are all its own is resolved in one pass (local-references.ts); one that refers to
// other documents is bundled by @readme/openapi-parser first, whose reads all go through
// references.ts and read.ts: within the
// document's folder (or URL folder) unless remote references are allowed, within one budget of
// bytes and time, abortable. A document from a URL is fetched by us, since the parser refuses
// loopback and private hosts, where the APIs people wrap often are. Recursive schemas keep their
// `$ref` (see schema/json-schema.ts). Only OpenAPI 3.0 and 3.1 are taken: a Swagger 2.0 document
// is refused, saying how to convert it.

import { existsSync } from 'node:fs'
import { isAbsolute, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { OpenApiError } from '../errors.js'
import { cleanText } from '../schema/clean-text.js'
import { checkExpansion } from './expansion.js'
import { hasOnlyLocalReferences, localDereferencer } from './local-references.js'
import { checkTime, type ReadBudget, ReadRefused } from './read.js'
import { type DocumentRoot, fileRoot, referenceResolvers } from './references.js'

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
  /** How long fetching the document (and each document it refers to) may take, in ms (default 10 s). */
  timeoutMs?: number
  /** The most bytes the document and the files it refers to may have together (default 32 MiB). */
  maxBytes?: number
  /** Follow `$ref`s to documents on other hosts (default false: only beside the document). */
  allowRemoteRefs?: boolean
  /** Stop loading (e.g. on SIGTERM): the promise rejects with the signal's reason. */
  signal?: AbortSignal
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
// The whole load: reading, parsing, following references, counting (large real documents take seconds).
const maximumLoadMs = 60_000

/** An error of the dereferencer (or of our reads inside it) as an OpenApiError. */
function readError(error: unknown, refusal: unknown, named: string): OpenApiError {
  const found = error instanceof ReadRefused ? error : refusal
  if (found instanceof ReadRefused) {
    return new OpenApiError('invalid_spec', cleanText(found.message), {
      cause: error,
      details: found.unreachable ? { unreachable: true } : undefined,
    })
  }
  const name = (error as Error)?.name
  const reason =
    name === 'TimeoutError'
      ? `following its references took longer than ${maximumLoadMs / 1000} s`
      : cleanText((error as Error)?.message ?? String(error)).split('\n')[0]
  return new OpenApiError('invalid_spec', `cannot read ${named}: ${reason}`, { cause: error })
}

/**
 * The document with every `$ref` followed. Other documents it refers to are bundled into it first
 * (through the resolvers), so that its size once dereferenced can be counted before the
 * dereferencer, which cannot be interrupted, spells it out.
 */
async function dereferenced(
  raw: Record<string, unknown>,
  root: DocumentRoot,
  resolvers: ReturnType<typeof referenceResolvers>,
  named: string,
  budget: ReadBudget,
): Promise<Record<string, unknown>> {
  if (hasOnlyLocalReferences(raw)) {
    const cycles = checkExpansion(raw, named, budget)
    return localDereferencer(raw, cycles).dereference(undefined as never, undefined)
  }
  const parser = await import('@readme/openapi-parser')
  const options = () => ({
    dereference: { circular: 'ignore' as const },
    resolve: { file: resolvers.file as never, http: resolvers.http as never, external: true },
    timeoutMs: Math.max(1, budget.deadline - Date.now()),
  })
  const source = root.kind === 'file' ? root.path : root.kind === 'url' ? root.url.href : raw
  const whole = (await parser.bundle(source as never, options())) as unknown as Record<string, unknown>
  checkTime(budget, `reading ${named}`)
  const cycles = checkExpansion(whole, named, budget)
  const { dereference } = hasOnlyLocalReferences(whole) ? localDereferencer(whole, cycles) : parser
  const spec = (await dereference(whole as never, options())) as unknown as Record<string, unknown>
  checkTime(budget, `reading ${named}`)
  return spec
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
  const maxBytes = options.maxBytes ?? maximumDocumentBytes
  const budget: ReadBudget = {
    bytesLeft: maxBytes,
    maxBytes,
    deadline: Date.now() + maximumLoadMs,
    maximumMs: maximumLoadMs,
    fetchTimeoutMs: options.timeoutMs ?? 10_000,
    signal: options.signal,
  }
  let root: DocumentRoot
  if (located === undefined) {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      throw new OpenApiError('invalid_spec', 'the document is not an OpenAPI document (not an object)')
    }
    root = { kind: 'object' }
  } else {
    root =
      located.kind === 'url' ? { kind: 'url', url: new URL(located.source) } : await fileRoot(located.source)
  }
  const resolvers = referenceResolvers(root, budget, options.allowRemoteRefs === true)
  let spec: Record<string, unknown>
  try {
    const raw =
      root.kind === 'object' ? structuredClone(input as Record<string, unknown>) : await resolvers.root()
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw new OpenApiError('invalid_spec', `${named} is not an OpenAPI document (not an object)`)
    }
    spec = await dereferenced(raw as Record<string, unknown>, root, resolvers, named, budget)
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason
    if (OpenApiError.isInstance(error)) throw error
    throw readError(error, resolvers.refusal(), named)
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
