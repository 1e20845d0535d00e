// What every call to one API shares, worked out once when its tools are made: where requests go,
// the configured and forced headers (checked), the authorizer, the redactor that knows every
// secret the server holds for the API, the limits, the answer mode and where uploads may be read.

import { realpathSync } from 'node:fs'
import type { Dispatcher } from 'undici'
import {
  type Authorizer,
  createAuthorizer,
  credentialSecrets,
  type OpenApiCredential,
} from '../auth/credentials.js'
import type { OpenApiDocument } from '../document/load.js'
import { baseUrlOf } from '../document/servers.js'
import { OpenApiError } from '../errors.js'
import type { FileAccess } from '../http/files.js'
import type { ConfiguredHeaders } from '../http/headers.js'
import { createRedactor, headerSecrets, type Redactor } from '../http/redact.js'

/** The options of an API that calls use (a part of OpenApiToolOptions). */
export interface ApiOptions {
  baseUrl?: string
  headers?: Readonly<Record<string, string>>
  forcedHeaders?: Readonly<Record<string, string>>
  credentials?: Readonly<Record<string, OpenApiCredential>>
  timeoutMs?: number
  maxResponseBytes?: number
  strictResponses?: boolean
  filesDirectory?: string
  dispatcher?: Dispatcher
  fetch?: typeof fetch
}

export interface Api {
  base: URL
  headers: ConfiguredHeaders
  authorize: Authorizer
  redactor: Redactor
  timeoutMs: number
  maxResponseBytes: number
  strictResponses: boolean
  files: FileAccess | undefined
  dispatcher: Dispatcher | undefined
}

function checkHeaders(headers: Readonly<Record<string, string>>, what: string): Record<string, string> {
  const checked: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new OpenApiError('invalid_options', `${JSON.stringify(name)} is not a header name (${what})`)
    }
    if (/[\r\n\0]/.test(value))
      throw new OpenApiError('invalid_options', `the ${name} header's value has a line break (${what})`)
    checked[name.toLowerCase()] = value
  }
  return checked
}

function positive(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback
  if (!Number.isFinite(value) || value <= 0)
    throw new OpenApiError('invalid_options', `${what} must be a number > 0`)
  return value
}

function filesOf(directory: string | undefined): FileAccess | undefined {
  if (directory === undefined) return undefined
  try {
    return { directory: realpathSync(directory) }
  } catch {
    throw new OpenApiError('invalid_options', `the files directory ${directory} does not exist`)
  }
}

export function prepareApi(document: OpenApiDocument, options: ApiOptions): Api {
  const base = baseUrlOf(document, options.baseUrl)
  const headers = checkHeaders(options.headers ?? {}, 'headers')
  const forced = checkHeaders(options.forcedHeaders ?? {}, 'forcedHeaders')
  const credentials = options.credentials ?? {}
  const redactor = createRedactor([
    ...credentialSecrets(credentials),
    ...headerSecrets(headers),
    ...headerSecrets(forced),
  ])
  return {
    base,
    headers: { headers, forced },
    authorize: createAuthorizer(document, credentials, base, options.fetch, (token) => redactor.add(token)),
    redactor,
    timeoutMs: positive(options.timeoutMs, 30_000, 'timeoutMs'),
    maxResponseBytes: positive(options.maxResponseBytes, 10 * 1024 * 1024, 'maxResponseBytes'),
    strictResponses: options.strictResponses === true,
    files: filesOf(options.filesDirectory),
    dispatcher: options.dispatcher,
  }
}
