// A profile made from a registry entry (`profile create NAME --from mcp+registry://…`, `inspect
// --save`, `profile update` moving it to another version): the launch the entry describes with its
// version pinned, the entry's literal text escaped (`$${` — a `${` in an argument is the entry's,
// not a variable), and every secret input kept out of the profile: its value goes to the secret
// store and the profile says `${secret:<profile>/<kind>/<name>}`. `registry` records where it came
// from, the launch choice asked for and the answers given, so that another version can be taken
// with the same ones.

import { isRecord } from '@mcp-kit/core'
import type { ProfileMeta, RegistryInput, RegistryResolution } from '@mcp-kit/profiles'
import type { Io } from '../base/io.js'

/** What a profile's `registry` says (`_meta.json`). */
export interface RegistryRecord {
  /** The registry's base URL. */
  url: string
  name: string
  /** The version pinned. */
  version: string
  /** The `--registry-choice` it was made with. */
  choice?: string
  /** The answers given for the entry's inputs; secret ones as `${secret:…}` references. */
  inputs?: Record<string, string | string[]>
}

/** A profile's `registry`, when it has a usable one. */
export function registryRecordOf(meta: ProfileMeta): RegistryRecord | undefined {
  const record = meta.registry
  if (!isRecord(record)) return undefined
  const { url, name, version, choice, inputs } = record
  if (typeof url !== 'string' || typeof name !== 'string' || typeof version !== 'string') return undefined
  const result: RegistryRecord = { url, name, version }
  if (typeof choice === 'string') result.choice = choice
  if (isRecord(inputs)) {
    const answers: Record<string, string | string[]> = {}
    for (const [key, value] of Object.entries(inputs)) {
      const valid =
        typeof value === 'string' || (Array.isArray(value) && value.every((item) => typeof item === 'string'))
      if (valid)
        Object.defineProperty(answers, key, { value, enumerable: true, writable: true, configurable: true })
    }
    result.inputs = answers
  }
  return result
}

/** The secret-store key of a profile's secret input. */
export function profileSecretKey(profile: string, kind: string, input: string): string {
  return `${profile}/${kind}/${input.replace(/[^A-Za-z0-9._-]/g, '_')}`
}

export async function registryProfileMeta(
  profile: string,
  resolution: RegistryResolution,
  io: Io,
): Promise<{ meta: ProfileMeta; secretKeys: string[] }> {
  const { registryLaunch, writeSecrets } = await import('@mcp-kit/profiles')
  const literalText = (text: string) => text.replaceAll('${', () => '$${')
  const secrets: Record<string, string> = {}
  const inputs: Record<string, string | string[]> = {}
  const keep = (input: RegistryInput, text: string) => {
    const had = Object.hasOwn(inputs, input.name) ? inputs[input.name] : undefined
    const value =
      input.repeated === true && had !== undefined ? [...(Array.isArray(had) ? had : [had]), text] : text
    Object.defineProperty(inputs, input.name, { value, enumerable: true, writable: true, configurable: true })
  }
  const launch = registryLaunch(resolution.server, {
    values: resolution.values,
    choose: resolution.launch.source.choice,
    literal: literalText,
    answerText: (input, value) => {
      if (!input.secret) {
        keep(input, value)
        return literalText(value)
      }
      const key = profileSecretKey(profile, input.kind, input.name)
      secrets[key] = value
      keep(input, `\${secret:${key}}`)
      return `\${secret:${key}}`
    },
  })
  const spec = launch.server
  const meta: ProfileMeta =
    spec.transport === 'stdio'
      ? { command: literalText(spec.command), args: spec.args, ...(spec.env ? { env: spec.env } : {}) }
      : { url: spec.url, ...(spec.headers ? { headers: spec.headers } : {}) }
  const record: RegistryRecord = {
    url: resolution.registry,
    name: resolution.name,
    version: resolution.version,
  }
  if (resolution.choice !== undefined) record.choice = resolution.choice
  if (Object.keys(inputs).length > 0) record.inputs = inputs
  meta.registry = record
  if (Object.keys(secrets).length > 0) await writeSecrets(secrets, { env: io.env })
  return { meta, secretKeys: Object.keys(secrets) }
}
