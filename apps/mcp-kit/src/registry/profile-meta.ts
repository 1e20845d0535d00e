// A profile made from a registry entry (`profile create NAME --from mcp+registry://…`, `inspect
// --save`): the launch the entry describes with its version pinned, the entry's literal text
// escaped (`$${` — a `${` in an argument is the entry's, not a variable), and every secret input
// kept out of the profile: its value goes to the secret store and the profile says
// `${secret:<profile>/<kind>/<name>}`. `registry` records where it came from.

import type { ProfileMeta, RegistryResolution } from '@mcp-kit/profiles'
import type { Io } from '../cli/io.js'

export async function registryProfileMeta(
  profile: string,
  resolution: RegistryResolution,
  io: Io,
): Promise<{ meta: ProfileMeta; secretKeys: string[] }> {
  const { registryLaunch, writeSecrets } = await import('@mcp-kit/profiles')
  const literalText = (text: string) => text.replaceAll('${', () => '$${')
  const secrets: Record<string, string> = {}
  const source = resolution.launch.source
  const launch = registryLaunch(resolution.server, {
    values: resolution.values,
    choose: source.kind === 'package' ? source.registryType : source.type,
    literal: literalText,
    answerText: (input, value) => {
      if (!input.secret) return literalText(value)
      const key = `${profile}/${input.kind}/${input.name.replace(/[^A-Za-z0-9._-]/g, '_')}`
      secrets[key] = value
      return `\${secret:${key}}`
    },
  })
  const spec = launch.server
  const meta: ProfileMeta =
    spec.transport === 'stdio'
      ? { command: literalText(spec.command), args: spec.args, ...(spec.env ? { env: spec.env } : {}) }
      : { url: spec.url, ...(spec.headers ? { headers: spec.headers } : {}) }
  meta.registry = { url: resolution.registry, name: resolution.name, version: resolution.version }
  if (Object.keys(secrets).length > 0) await writeSecrets(secrets, { env: io.env })
  return { meta, secretKeys: Object.keys(secrets) }
}
