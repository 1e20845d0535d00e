// A collection's servers as references the client can connect to: a reference or profile is
// resolved as the CLI resolves references (search paths, `${VAR}`); a command is a command line
// run without a shell; a URL is a Streamable HTTP endpoint. Placeholders are filled first, and
// a stdio server without a directory of its own runs in the collection's directory.

import { resolve } from 'node:path'
import type { ResolvedReference } from '@mcp-kit/profiles'
import type { Collection, ServerEntry } from '../collection-types.js'
import { CollectionError } from '../errors.js'
import { fillPlaceholders } from '../placeholders.js'

/** Resolves a reference string (`@profile`, `mcp+npx://…`); the CLI gives its own (registry references, bundled profiles). */
export type ReferenceResolver = (reference: string, directory: string) => Promise<ResolvedReference>

export const defaultResolver: ReferenceResolver = async (reference, directory) => {
  const { resolveReference } = await import('@mcp-kit/profiles')
  return resolveReference(reference, { cwd: directory })
}

function asServerOnly(resolved: ResolvedReference, name: string, text: string): ResolvedReference {
  if (resolved.operation.kind !== 'inspect' && resolved.operation.kind !== 'listTools')
    throw new CollectionError(
      'invalid_collection',
      `server '${name}': ${JSON.stringify(text)} names an operation; a server entry names only the server (steps say what to do)`,
    )
  return resolved
}

/** The server `name` of the collection, resolved; `variables` fill its placeholders. */
export async function resolveServer(
  collection: Collection,
  name: string,
  variables: Readonly<Record<string, string | undefined>>,
  resolver: ReferenceResolver,
): Promise<ResolvedReference> {
  const written = collection.document.servers[name] as ServerEntry
  const entry = fillPlaceholders(written, {
    captured: {},
    variables,
    where: { file: collection.file || collection.name, field: `servers.${name}` },
  })
  const directory = collection.directory
  let resolved: ResolvedReference
  if (typeof entry === 'string' || entry.reference !== undefined || entry.profile !== undefined) {
    const text =
      typeof entry === 'string'
        ? entry
        : entry.reference !== undefined
          ? entry.reference
          : `@${entry.profile}`
    resolved = asServerOnly(await resolver(text, directory), name, text)
  } else if (entry.command !== undefined) {
    const { parseCommandReference } = await import('@mcp-kit/profiles')
    const words = Array.isArray(entry.command) ? entry.command : [entry.command, ...(entry.args ?? [])]
    const reference = parseCommandReference(words)
    const server = {
      ...reference.server,
      ...(entry.env === undefined ? {} : { env: { ...entry.env } }),
      cwd: resolve(directory, entry.cwd ?? '.'),
    }
    resolved = { reference: { ...reference, server }, server, operation: reference.operation }
  } else {
    const { parseReference } = await import('@mcp-kit/profiles')
    let url: URL
    try {
      url = new URL(entry.url as string)
    } catch {
      throw new CollectionError(
        'invalid_collection',
        `server '${name}': ${JSON.stringify(entry.url)} is not a URL`,
      )
    }
    const reference = parseReference(`mcp+${url.protocol}//${url.host}${url.pathname}`)
    const server = {
      transport: 'http' as const,
      url: url.href,
      ...(entry.headers ? { headers: { ...entry.headers } } : {}),
    }
    resolved = { reference, server, operation: { kind: 'inspect' } }
  }
  if (resolved.server.transport === 'stdio' && resolved.server.cwd === undefined)
    resolved = { ...resolved, server: { ...resolved.server, cwd: directory } }
  return resolved
}

/** The protocol a server entry pins (undefined: auto). */
export function protocolOf(collection: Collection, name: string): string | undefined {
  const entry = collection.document.servers[name]
  return typeof entry === 'object' ? entry.protocol : undefined
}
