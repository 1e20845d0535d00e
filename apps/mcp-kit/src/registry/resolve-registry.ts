// `mcp+registry://name[@version]` as the CLI resolves it: the entry from the registry (or its
// cached copy, said so, when the registry cannot be reached; or a server.json for `registry
// launch`), its status heeded (deleted: refused; deprecated: a warning), then the launch
// --registry-choice names (default: the first mcp-kit can run) with the inputs answered from
// --input (repeated for several values) or --input-json, the secret store
// (`registry/<name>/<input>`) and, on a terminal, questions. A required input nothing answers is
// exit 2, naming every one.

import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import type {
  RegistryAnswers,
  RegistryInput,
  RegistryResolution,
  RegistryResolver,
  RegistryServer,
} from '@mcp-kit/profiles'
import { CliError, isKitError } from '../base/errors.js'
import { type InputArguments, parseInputFlags } from '../base/input-flags.js'
import type { Io } from '../base/io.js'
import { openTerminalPrompt } from '../base/terminal-prompt.js'
import { diagnostics } from '../output/diagnostics.js'
import { sanitizeLine } from '../output/sanitize.js'
import { registryClient } from './registry-client.js'
import type { RegistryArguments } from './registry-flags.js'

type Arguments = RegistryArguments & InputArguments & { verbose?: boolean; quiet?: boolean }

interface Entry {
  server: RegistryServer
  meta: Record<string, unknown>
  official: Record<string, unknown>
  offline: boolean
  storedAt?: number
  registry: string
}

type Answers = Record<string, string | string[]>

/** Sets one answer (input names come from the entry: `__proto__` is a name like any other). */
function setAnswer(answers: Answers, name: string, value: string | string[]): void {
  Object.defineProperty(answers, name, { value, enumerable: true, writable: true, configurable: true })
}

/**
 * Answers to an entry's inputs from the flags: `--input NAME=value`, several values for one given
 * more than once (a repeated argument), and `--input-json`'s text, numbers, true/false or lists
 * of them; `--input` wins for a name both give.
 */
export function registryAnswers(args: InputArguments): Answers {
  const { json } = parseInputFlags(args)
  const answers: Answers = {}
  const scalar = (value: unknown) =>
    typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
  for (const [name, value] of Object.entries(json)) {
    if (scalar(value)) setAnswer(answers, name, String(value))
    else if (Array.isArray(value) && value.every(scalar)) setAnswer(answers, name, value.map(String))
  }
  const given = new Map<string, string[]>()
  for (const pair of args.input ?? []) {
    const equals = pair.indexOf('=')
    const name = pair.slice(0, equals)
    given.set(name, [...(given.get(name) ?? []), pair.slice(equals + 1)])
  }
  for (const [name, values] of given)
    setAnswer(answers, name, values.length === 1 ? (values[0] as string) : values)
  return answers
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
async function answersFor(missing: RegistryInput[], name: string, io: Io, values: Answers): Promise<boolean> {
  const { readSecrets } = await import('@mcp-kit/profiles')
  const secrets = await readSecrets({ env: io.env })
  let found = false
  for (const input of missing) {
    const key = secretKeyFor(name, input.name)
    const kept = Object.hasOwn(secrets, key) ? secrets[key] : undefined
    if (kept !== undefined) {
      setAnswer(values, input.name, kept)
      found = true
    }
  }
  const unanswered = missing.filter((input) => !Object.hasOwn(values, input.name))
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
        setAnswer(values, input.name, answer)
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
    const values: Answers = {}
    for (const given of [args.answers ?? {}, registryAnswers(args)])
      for (const [name, value] of Object.entries(given)) setAnswer(values, name, value)
    const choice = args['registry-choice']
    for (let attempt = 0; ; attempt++) {
      try {
        const launch = registryLaunch(entry.server, {
          values,
          ...(choice === undefined ? {} : { choose: choice }),
        })
        const resolution: RegistryResolution = {
          registry: entry.registry,
          name: String(entry.server.name),
          version: String(entry.server.version),
          server: entry.server,
          meta: entry.meta,
          launch,
          values: values as RegistryAnswers,
        }
        if (choice !== undefined) resolution.choice = choice
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
