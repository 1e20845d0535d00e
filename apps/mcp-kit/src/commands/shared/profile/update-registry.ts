// `mcp-kit profile update` of a profile made from a registry entry: the registry is asked which
// versions there are (a newer one is said to be available; the pin stays), and `--to-version V`
// (or `latest`) moves the pin: the new version's launch, with the choice and answers the profile
// was made with (secret ones from the secret store), its live tools compared with the stored
// ones as every update does, and on confirmation the launch, the pin and the schemas rewritten.
// What the user wrote in the profile (descriptions, defaults, notes, policies) stays.

import type { Tool } from '@mcp-kit/client'
import type { Profile, ProfileMeta } from '@mcp-kit/profiles'
import { CliError } from '../../../base/errors.js'
import { exitCodes } from '../../../base/exit-codes.js'
import { type Io, writeLine } from '../../../base/io.js'
import { diagnostics } from '../../../output/diagnostics.js'
import { sanitizeLine } from '../../../output/sanitize.js'
import { type RegistryRecord, registryRecordOf } from '../../../registry/profile-meta.js'
import { openSession } from '../../../session/open-session.js'
import { resolveForCli } from '../../../session/reference.js'
import { describeChanges } from '../../../session/schema-check.js'
import { profileName } from './locations.js'
import type { UpdateArguments } from './update-entries.js'

/** The fields of a profile that say how to launch or reach its server: the entry's to rewrite. */
const launchKeys = ['transport', 'command', 'args', 'env', 'cwd', 'url', 'headers'] as const

/** The registry's versions of the entry: the latest one's number, and whether `version` is listed. */
async function registryVersions(
  record: RegistryRecord,
  args: UpdateArguments,
  io: Io,
): Promise<{ latest: string | undefined; offline: boolean; registry: string }> {
  const { registryClient } = await import('../../../registry/registry-client.js')
  const client = await registryClient(args, io, { url: args.registry ?? record.url })
  const page = await client.listVersions(record.name)
  const active = page.servers.filter((item) => item.official.status !== 'deleted')
  const latest = active.find((item) => item.official.isLatest === true) ?? active.at(-1)
  return {
    latest: latest === undefined ? undefined : String(latest.server.version),
    offline: page.offline,
    registry: client.url,
  }
}

/** The profile's answers, its secret ones read back from the secret store (those missing are asked again). */
async function storedAnswers(record: RegistryRecord, io: Io): Promise<Record<string, string | string[]>> {
  const { readSecrets } = await import('@mcp-kit/profiles')
  const inputs = record.inputs ?? {}
  const reference = /^\$\{secret:([A-Za-z0-9._/-]+)\}$/
  const wanted = Object.values(inputs).some((value) => typeof value === 'string' && reference.test(value))
  const secrets = wanted ? await readSecrets({ env: io.env }) : {}
  const answers: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(inputs)) {
    const key = typeof value === 'string' ? reference.exec(value)?.[1] : undefined
    const answer = key === undefined ? value : Object.hasOwn(secrets, key) ? secrets[key] : undefined
    if (answer !== undefined)
      Object.defineProperty(answers, name, {
        value: answer,
        enumerable: true,
        writable: true,
        configurable: true,
      })
  }
  return answers
}

/**
 * For a profile made from a registry entry: says whether a newer version is out, and with
 * `--to-version` moves the pin (returning the exit code). Undefined when the usual update (the
 * pinned server's schemas) is what is left to do.
 */
export async function updateRegistryProfile(args: UpdateArguments, io: Io): Promise<number | undefined> {
  const name = profileName(args.profile)
  const resolved = await resolveForCli(`@${name}`, io)
  const profile = resolved.profile as Profile
  const record = registryRecordOf(profile.meta)
  const wanted = args['to-version']
  if (record === undefined) {
    if (wanted !== undefined)
      throw new CliError(
        'usage',
        `@${name} was not made from a registry entry: --to-version moves the version a registry profile pins`,
      )
    return undefined
  }
  const say = diagnostics(io, args)
  const pinned = `${record.name}@${sanitizeLine(record.version)}`
  let latest: string | undefined
  try {
    const versions = await registryVersions(record, args, io)
    latest = versions.latest
    if (versions.offline)
      say.warn(`the registry at ${versions.registry} cannot be reached: its versions are as cached`)
  } catch (error) {
    if (wanted !== undefined) throw error
    say.warn(
      `cannot ask the registry whether ${record.name} has a newer version: ${(error as Error).message}`,
    )
  }
  if (wanted === undefined) {
    if (latest !== undefined && latest !== record.version)
      await writeLine(
        io.stdout,
        `@${name}: ${pinned} is pinned; the registry's latest is ${sanitizeLine(latest)}: take it with --to-version ${sanitizeLine(latest)} (or latest)`,
      )
    return undefined
  }
  const target = wanted === 'latest' ? latest : wanted
  if (target === undefined)
    throw new CliError('server_not_found', `the registry lists no version of ${record.name}`)
  if (target === record.version) {
    await writeLine(io.stdout, `@${name}: ${pinned} is pinned already`)
    return undefined
  }
  return movePin(profile, record, target, args, io)
}

async function movePin(
  profile: Profile,
  record: RegistryRecord,
  version: string,
  args: UpdateArguments,
  io: Io,
): Promise<number> {
  const name = `@${profile.location.name}`
  const choice = args['registry-choice'] ?? record.choice
  const registry = await resolveForCli(`mcp+registry://${record.name}@${version}`, io, {
    registry: args.registry ?? record.url,
    ...(args['registry-header'] === undefined ? {} : { 'registry-header': args['registry-header'] }),
    ...(choice === undefined ? {} : { 'registry-choice': choice }),
    answers: await storedAnswers(record, io),
    ...(args.input === undefined ? {} : { input: args.input }),
    ...(args['input-json'] === undefined ? {} : { 'input-json': args['input-json'] }),
  })
  const resolution = registry.registry
  if (resolution === undefined)
    throw new CliError('internal', 'a registry reference resolved without its entry')
  const { loadProfileDocument, rewriteProfile, storedTools } = await import('@mcp-kit/profiles')
  const { diffTools, hashTools } = await import('@mcp-kit/schema')
  const document = await loadProfileDocument(profile)
  const session = await openSession(registry, args, io, { toolFilter: profile.toolFilter ?? null })
  let tools: Tool[]
  try {
    tools = await session.listTools()
  } finally {
    await session.close()
  }
  const changes = diffTools(storedTools(document.tools), tools)
  const hash = hashTools(tools)
  const lines = [
    `${name}: ${record.name} ${sanitizeLine(record.version)} → ${sanitizeLine(resolution.version)}`,
  ]
  if (changes.length > 0)
    lines.push('changes to accept:', ...describeChanges(changes).map((line) => `  ${line}`))
  else lines.push(`the tools are unchanged (${hash})`)
  await writeLine(io.stdout, lines.join('\n'))
  const { confirmUpdate, updatedEntries } = await import('./update-entries.js')
  if (!(await confirmUpdate(args, io, name, `Move ${name} to ${record.name}@${resolution.version}? [y/N] `)))
    return exitCodes.ok
  const { registryProfileMeta } = await import('../../../registry/profile-meta.js')
  const launch = await registryProfileMeta(profile.location.name, resolution, io)
  const meta: ProfileMeta = { ...document.meta }
  for (const key of launchKeys) delete meta[key]
  Object.assign(meta, launch.meta, { schema_hash: hash, schema_updated: new Date().toISOString() })
  const made = `${record.name}@${record.version} from the MCP Registry`
  if (typeof meta.description === 'string' && meta.description.startsWith(made))
    meta.description = `${record.name}@${resolution.version} from the MCP Registry${meta.description.slice(made.length)}`
  await rewriteProfile(profile.location, { meta, tools: await updatedEntries(document.tools, tools) })
  await writeLine(
    io.stdout,
    `updated ${name} to ${record.name}@${sanitizeLine(resolution.version)}: ${tools.length} tools, ${hash}`,
  )
  return exitCodes.ok
}
