// A gateway config entry that names its server by its MCP Registry entry instead of a command or
// a URL: `"url": "mcp+registry://io.github.owner/name[@version]"`, with the answers to the entry's
// inputs in `"inputs"` (`{ "NAME": "value" }`, a list of values for a repeated argument; `${NAME}`
// from the environment as elsewhere in the file). The gateway does no registry look-ups: such
// entries come back as references for whoever starts the gateway to resolve (`mcp-kit serve`,
// through @mcp-kit/registry), each with its place among the upstreams, since the file's order
// decides which upstream owns an overlapping resource space.

import { isRecord } from '@mcp-kit/core'
import { ProfileError, parseReference } from '@mcp-kit/profiles'
import type { UpstreamOptions } from '../types.js'

export interface ConfigReference {
  /** The upstream's name (the entry's key, made safe). */
  name: string
  /** The reference, `${NAME}` filled in: `mcp+registry://…`. */
  reference: string
  /** Answers to the registry entry's inputs, by input name. */
  inputs: Record<string, string | string[]>
  /** The upstream's options but its server: `prefix`, filters, and `oauth` for a remote entry. */
  options: Omit<UpstreamOptions, 'name' | 'server'>
  /** Where it goes among `upstreams`: inserting each reference there, in turn, keeps the file's order. */
  index: number
}

/** Launch keys a registry entry decides for itself. */
const launchKeys = ['command', 'args', 'env', 'cwd', 'headers'] as const

/** True for an entry whose `url` is a registry reference. */
export function isReferenceUrl(url: unknown): url is string {
  return typeof url === 'string' && /^mcp\+registry:/i.test(url)
}

/** The entry's `inputs`: strings, or lists of strings for a repeated argument. */
function inputsOf(
  value: unknown,
  where: string,
  fail: (message: string) => never,
): ConfigReference['inputs'] {
  if (value === undefined) return {}
  if (!isRecord(value)) fail(`${where}.inputs must be an object of input names and values`)
  const inputs: ConfigReference['inputs'] = {}
  for (const [name, item] of Object.entries(value as Record<string, unknown>)) {
    const valid =
      typeof item === 'string' || (Array.isArray(item) && item.every((each) => typeof each === 'string'))
    if (!valid) fail(`${where}.inputs.${name} must be a string or a list of strings`)
    Object.defineProperty(inputs, name, { value: item, enumerable: true, writable: true, configurable: true })
  }
  return inputs
}

/** Checks a registry entry's reference and keys (the options are the caller's). */
export function configReferenceOf(
  name: string,
  url: string,
  entry: Readonly<Record<string, unknown>>,
  inputs: unknown,
  where: string,
  fail: (message: string) => never,
): Omit<ConfigReference, 'options' | 'index'> {
  for (const key of launchKeys)
    if (entry[key] !== undefined)
      fail(
        `${where}.${key}: a registry entry says how to launch its server; give answers to its inputs in "inputs"`,
      )
  try {
    const parsed = parseReference(url)
    if (parsed.type !== 'registry') fail(`${where}.url is not an mcp+registry:// reference`)
    if (parsed.operation.kind !== 'inspect')
      fail(`${where}.url names a tool, resource or prompt; a gateway entry names a server`)
  } catch (error) {
    if (ProfileError.isInstance(error)) fail(`${where}.url: ${error.message}`)
    throw error
  }
  return { name, reference: url, inputs: inputsOf(inputs, where, fail) }
}
