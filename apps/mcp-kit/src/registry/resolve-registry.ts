// `mcp+registry://name[@version]` as the CLI resolves it: the entry from the registry (or its
// cached copy, said so, when the registry cannot be reached; or a server.json for `registry
// launch`), its status heeded (deleted: refused; deprecated: a warning), then its launch with the
// inputs answered from --input, the secret store (`registry/<name>/<input>`) and, on a terminal,
// questions. A required input nothing answers is exit 2, naming every one.

import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { RegistryInput, RegistryResolution, RegistryResolver, RegistryServer } from '@mcp-kit/profiles'
import { CliError, isKitError } from '../cli/errors.js'
import type { Io } from '../cli/io.js'
import { openTerminalPrompt } from '../cli/terminal-prompt.js'
import { diagnostics } from '../output/diagnostics.js'
import { sanitizeLine } from '../output/sanitize.js'
import { parseInputFlags } from '../session/input-handler.js'
import { registryClient } from './registry-client.js'
import type { RegistryArguments } from './registry-flags.js'

type Arguments = RegistryArguments & { verbose?: boolean; quiet?: boolean }

interface Entry {
  server: RegistryServer
  meta: Record<string, unknown>
  official: Record<string, unknown>
  offline: boolean
  storedAt?: number
  registry: string
}

/** The secret-store key a registry input is read from. */
export function secretKeyFor(name: string, input: string): string {
  return `registry/${name}/${input.replace(/[^A-Za-z0-9._-]/g, '_')}`
}

async function entryFromFile(file: string, io: Io): Promise<Entry> {
  const path = resolve(io.cwd, file)
  let value: unknown
  try {
    value = JSON.parse(await readFile(path, 'utf8'))
  } catch (error) {
    throw new CliError('usage', `cannot read ${file} as JSON: ${(error as Error).message}`, { cause: error })
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new CliError('usage', `${file} is not a server.json (not a JSON object)`)
  return { server: value as RegistryServer, meta: {}, official: {}, offline: false, registry: path }
}

async function fetchEntry(
  name: string,
  version: string | undefined,
  args: Arguments,
  io: Io,
): Promise<Entry> {
  if (args.registryFile !== undefined) return entryFromFile(args.registryFile, io)
  const client = await registryClient(args, io)
  const answer = await client.getServer(name, version ?? 'latest')
  if (answer.server.name !== name || (version !== undefined && answer.server.version !== version)) {
    throw new CliError(
      'registry_invalid',
      `the registry at ${client.url} answered for ${sanitizeLine(String(answer.server.name))}@${sanitizeLine(String(answer.server.version))} when asked for ${name}${version === undefined ? '' : `@${version}`}`,
    )
  }
  return { ...answer, registry: client.url }
}

function heedStatus(entry: Entry, args: Arguments, io: Io): void {
  const label = `${entry.server.name}@${sanitizeLine(String(entry.server.version))}`
  const why =
    typeof entry.official.statusMessage === 'string' ? `: ${sanitizeLine(entry.official.statusMessage)}` : ''
  if (entry.official.status === 'deleted')
    throw new CliError('invalid_reference', `${label} was deleted from the registry${why}`, {
      details: { status: 'deleted' },
    })
  const say = diagnostics(io, args)
  if (entry.official.status === 'deprecated') say.warn(`${label} is deprecated${why}`)
  if (entry.offline) {
    const when = entry.storedAt === undefined ? '' : ` on ${new Date(entry.storedAt).toISOString()}`
    say.warn(`the registry at ${entry.registry} cannot be reached: using the copy of ${label} cached${when}`)
  }
}

/** Answers for the inputs `missing`: the secret store's, then a person's on a terminal. */
async function answersFor(
  missing: RegistryInput[],
  name: string,
  io: Io,
  values: Record<string, string>,
): Promise<boolean> {
  const { readSecrets } = await import('@mcp-kit/profiles')
  const secrets = await readSecrets({ env: io.env })
  let found = false
  for (const input of missing) {
    const kept = secrets[secretKeyFor(name, input.name)]
    if (kept !== undefined) {
      values[input.name] = kept
      found = true
    }
  }
  const unanswered = missing.filter((input) => values[input.name] === undefined)
  if (unanswered.length === 0) return found
  const prompt = openTerminalPrompt(io)
  if (prompt === undefined) return found
  try {
    for (const input of unanswered) {
      const about = input.description === undefined ? '' : ` (${sanitizeLine(input.description)})`
      const answer = await prompt.ask(
        `${sanitizeLine(input.name)}${about}${input.secret ? ', not shown' : ''}: `,
        {
          hidden: input.secret,
          ...(input.choices === undefined ? {} : { choices: input.choices }),
        },
      )
      if (answer !== '') {
        values[input.name] = answer
        found = true
      }
    }
  } finally {
    prompt.close()
  }
  return found
}

function missingError(
  error: { message: string; details?: Record<string, unknown> },
  name: string,
  args: Arguments,
): CliError {
  const inputs = (error.details?.inputs ?? []) as RegistryInput[]
  const first = inputs[0]?.name ?? 'NAME'
  const secret = inputs.find((input) => input.secret)
  const store =
    secret === undefined
      ? ''
      : `, or keep a secret one in the secret store: mcp-kit profile secret set ${secretKeyFor(name, secret.name)}`
  const hint = args.answerHint?.(first) ?? `give --input ${first}=…`
  return new CliError('missing_input', `${sanitizeLine(error.message)}: ${hint}${store}`, {
    details: error.details,
  })
}

export function registryResolver(args: Arguments, io: Io): RegistryResolver {
  return async (reference): Promise<RegistryResolution> => {
    const entry = await fetchEntry(reference.name, reference.version, args, io)
    heedStatus(entry, args, io)
    const { registryLaunch } = await import('@mcp-kit/profiles')
    const values: Record<string, string> = { ...parseInputFlags(args).strings }
    for (let attempt = 0; ; attempt++) {
      try {
        const launch = registryLaunch(entry.server, { values })
        const resolution: RegistryResolution = {
          registry: entry.registry,
          name: String(entry.server.name),
          version: String(entry.server.version),
          server: entry.server,
          meta: entry.meta,
          launch,
          values,
        }
        if (entry.offline) resolution.offline = true
        return resolution
      } catch (error) {
        if (!isKitError(error) || error.code !== 'missing_input') throw error
        const missing = (error.details?.inputs ?? []) as RegistryInput[]
        if (attempt > 0 || !(await answersFor(missing, String(entry.server.name), io, values)))
          throw missingError(error, String(entry.server.name), args)
      }
    }
  }
}
