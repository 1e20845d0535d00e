// The server a recorded session used, as a collection writes it: a profile by its name (its
// secrets stay in the profile and the secret store), a registry entry by its reference, any
// other server by its command line or URL. Values of the command's --env and --header that look
// secret are written as ${NAME}, to be given when the collection runs.

import type { ServerEntry } from '@mcp-kit/collections'
import type { ResolvedReference } from '@mcp-kit/profiles'

export interface RecordedServer {
  name: string
  entry: ServerEntry
  /** `${NAME}`s written in place of secret values, with what they stand for. */
  placeholders: Array<{ name: string; of: string }>
}

/** A name for the collection's `servers`: letters, digits, `.`, `_`, `-`. */
export function serverName(text: string): string {
  const last = text.split('/').filter(Boolean).pop() ?? text
  const name = last
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 60)
  return name === '' ? 'server' : name
}

function keepLiteral(value: string): string {
  return value.replaceAll('${', () => '$${')
}

function variableName(text: string): string {
  const name = text
    .toUpperCase()
    .replace(/[^A-Z0-9_]+/g, '_')
    .replace(/^([0-9])/, '_$1')
  return name === '' ? 'SECRET' : name
}

export async function recordedServer(
  resolved: ResolvedReference,
  serverInfoName: string,
  flags: { env?: Record<string, string>; headers?: Record<string, string> },
  cwd: string,
): Promise<RecordedServer> {
  const { isSecretHeader, isSecretName, looksLikeSecret } = await import('@mcp-kit/profiles')
  const reference = resolved.reference
  if (reference.type === 'profile')
    return { name: serverName(reference.profile), entry: `@${reference.profile}`, placeholders: [] }
  if (reference.type === 'registry' && resolved.registry !== undefined)
    return {
      name: serverName(reference.name),
      entry: `mcp+registry://${resolved.registry.name}@${resolved.registry.version}`,
      placeholders: [],
    }
  const placeholders: RecordedServer['placeholders'] = []
  const guard = (values: Record<string, string>, secret: (name: string) => boolean, of: string) => {
    const written: Record<string, string> = {}
    for (const [name, value] of Object.entries(values)) {
      if (secret(name) || looksLikeSecret(value)) {
        const placeholder = of === 'env' ? variableName(name) : `HEADER_${variableName(name)}`
        placeholders.push({ name: placeholder, of: `${of} ${name}` })
        written[name] = `\${${placeholder}}`
      } else written[name] = keepLiteral(value)
    }
    return written
  }
  const server = resolved.server
  if (server.transport === 'http') {
    const headers = guard({ ...server.headers, ...flags.headers }, isSecretHeader, 'header')
    return {
      name: serverName(serverInfoName),
      entry: { url: keepLiteral(server.url), ...(Object.keys(headers).length > 0 ? { headers } : {}) },
      placeholders,
    }
  }
  const env = guard({ ...server.env, ...flags.env }, isSecretName, 'env')
  return {
    name: serverName(serverInfoName),
    entry: {
      command: [server.command, ...server.args].map(keepLiteral),
      ...(Object.keys(env).length > 0 ? { env } : {}),
      // Absolute here; written relative to the collection's directory.
      cwd: server.cwd ?? cwd,
    },
    placeholders,
  }
}
