// The registry client as the CLI configures it: the registry from --registry, else
// $MCP_KIT_REGISTRY, else the official one; headers from --registry-header (`${NAME}` and
// `${secret:KEY}` filled in from the environment and the secret store, so a token stays off the
// command line) and $MCP_KIT_REGISTRY_TOKEN as a bearer token; answers kept in the CLI's cache.

import type { RegistryClient } from '@mcp-kit/registry'
import { CliError } from '../base/errors.js'
import type { Io } from '../base/io.js'
import type { RegistryArguments } from './registry-flags.js'

export async function registryHeaders(args: RegistryArguments, io: Io): Promise<Record<string, string>> {
  const headers: Record<string, string> = {}
  const token = io.env.MCP_KIT_REGISTRY_TOKEN
  if (token !== undefined && token !== '') headers.Authorization = `Bearer ${token}`
  const given = args['registry-header'] ?? []
  if (given.length === 0) return headers
  const { readSecrets, secretKeys } = await import('@mcp-kit/profiles')
  const { substituteString } = await import('@mcp-kit/profiles/internal')
  const wanted = secretKeys(given)
  const secrets = wanted.size > 0 ? await readSecrets({ env: io.env }) : {}
  const variables: Record<string, string | undefined> = { ...io.env }
  for (const key of wanted) if (Object.hasOwn(secrets, key)) variables[`secret:${key}`] = secrets[key]
  for (const text of given) {
    const colon = text.indexOf(':')
    const name = colon === -1 ? '' : text.slice(0, colon).trim()
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || /[\r\n\0]/.test(text))
      throw new CliError('usage', `--registry-header ${JSON.stringify(text)}: expected 'Name: value'`)
    headers[name] = substituteString(text.slice(colon + 1).trim(), variables, {
      file: '--registry-header',
      field: name,
    })
  }
  return headers
}

/** The registry's base URL for these flags. */
export function registryUrl(args: RegistryArguments, io: Io, fallback?: string): string | undefined {
  const url = args.registry ?? (io.env.MCP_KIT_REGISTRY || undefined) ?? fallback
  return url
}

export async function registryClient(
  args: RegistryArguments,
  io: Io,
  options: { url?: string } = {},
): Promise<RegistryClient> {
  const { createRegistryClient, defaultRegistryCacheDir, fileResponseCache, RegistryError } = await import(
    '@mcp-kit/registry'
  )
  try {
    return createRegistryClient({
      url: options.url ?? registryUrl(args, io),
      headers: await registryHeaders(args, io),
      cache: fileResponseCache(defaultRegistryCacheDir(io.env)),
    })
  } catch (error) {
    if (RegistryError.isInstance(error) && error.code === 'invalid_options')
      throw new CliError('usage', `--registry: ${error.message}`, { cause: error })
    throw error
  }
}
