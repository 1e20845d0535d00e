// The server a generated module connects to, the source it names and the command that writes it
// again. A profile's launch settings stay as written (its `${VAR}` and `${secret:KEY}` are
// expanded when the module connects); what the reference, its query and the flags add (--env,
// --header, --pass-env) is written with each secret as `${NAME}` (launch-parts.ts), so a module
// never holds a secret value, and neither do its comments.

import type { ServerSpec } from '@mcp-kit/client'
import type { ProfileMeta, ResolvedReference } from '@mcp-kit/profiles'
import { CliError } from '../../base/errors.js'
import type { Io } from '../../base/io.js'
import { appVariables, profileOptions } from '../../session/reference.js'
import type { GenerateArguments } from './generate-arguments.js'
import {
  asShellWord,
  asTemplate,
  asText,
  type Parts,
  partsOf,
  variableFor,
  variablesOf,
} from './launch-parts.js'

export interface ModuleServer {
  server: ServerSpec
  profile?: string
  source: string
  regenerate: string
  /** The variables the module reads its secrets from, for the message. */
  variables: string[]
}

/** `Name: value` and `NAME=value` flags (open-session.ts has refused malformed ones by now). */
function pairs(values: readonly string[], separator: string): Record<string, string> {
  const record: Record<string, string> = {}
  for (const value of values) {
    const at = value.indexOf(separator)
    if (at > 0) record[value.slice(0, at).trim()] = value.slice(at + 1).replace(/^ +/, '')
  }
  return record
}

/** Launch settings with their secrets as variables: separateSecrets decides, as for a profile. */
async function separate(meta: ProfileMeta, passed: readonly string[]) {
  const { separateSecrets } = await import('@mcp-kit/profiles')
  const { meta: separated, secrets } = separateSecrets('module', meta)
  const parts = (value: string) => partsOf(value, secrets)
  const record = (values: Record<string, string> | undefined) =>
    new Map(Object.entries(values ?? {}).map(([name, value]) => [name, parts(value)]))
  const env = record(separated.env)
  for (const name of passed) env.set(name, [{ variable: name }])
  const given = meta.args ?? []
  // `--token abc`: the word after a secret flag is named after the flag, not its position.
  const args = (separated.args ?? []).map((value, index) => {
    const previous = given[index - 1]
    const named = previous !== undefined && /^--?[A-Za-z][\w.-]*$/.test(previous)
    return parts(value).map((part) =>
      typeof part !== 'string' && named
        ? { variable: variableFor(`module/arg/${previous.replace(/^-+/, '')}`) }
        : part,
    )
  })
  return {
    command: separated.command === undefined ? undefined : parts(separated.command),
    cwd: separated.cwd === undefined ? undefined : parts(separated.cwd),
    url: separated.url === undefined ? undefined : parts(separated.url),
    args,
    env,
    headers: record(separated.headers),
  }
}

type Separated = Awaited<ReturnType<typeof separate>>

function templates(values: Map<string, Parts>): Record<string, string> {
  return Object.fromEntries([...values].map(([name, parts]) => [name, asTemplate(parts)]))
}

/** The reference as typed, its query's `env.NAME=` and `arg=` values with their secrets as variables. */
function referenceParts(reference: string, separated: Separated, args: Map<string, Parts>): Parts {
  const at = reference.indexOf('?')
  if (at === -1) return [reference]
  const parts: Parts = [reference.slice(0, at + 1)]
  for (const [index, segment] of reference
    .slice(at + 1)
    .split('&')
    .entries()) {
    if (index > 0) parts.push('&')
    const equals = segment.indexOf('=')
    const key = segment.slice(0, equals)
    let value = segment.slice(equals + 1)
    try {
      value = decodeURIComponent(value)
    } catch {}
    const given = key.startsWith('env.')
      ? separated.env.get(key.slice(4))
      : key === 'arg'
        ? args.get(value)
        : undefined
    if (equals === -1 || given === undefined || variablesOf(given).length === 0) parts.push(segment)
    else parts.push(`${key}=`, ...given)
  }
  return parts
}

/**
 * The variables this installation gives profiles (MCP_KIT_NODE, MCP_KIT_BIN: the bundled `@demo`)
 * filled in, as a program using the module has no such variables.
 */
function withAppVariables(server: ServerSpec): ServerSpec {
  const variables = Object.entries(appVariables())
  const fill = (text: string) =>
    variables.reduce((value, [name, path]) => value.split(`\${${name}}`).join(path), text)
  if (server.transport === 'http') return server
  return { ...server, command: fill(server.command), args: server.args.map(fill) }
}

/** The launch settings as written (a profile's) and what is added to them as literal text. */
async function launchSettings(
  resolved: ResolvedReference,
  args: GenerateArguments,
  io: Io,
): Promise<{ written?: ServerSpec; literal: ProfileMeta }> {
  const reference = resolved.reference
  const headers = pairs(args.header ?? [], ':')
  const env = pairs(args.env ?? [], '=')
  if (reference.type === 'profile') {
    const { loadProfile } = await import('@mcp-kit/profiles')
    const profile = await loadProfile(reference.profile, { ...profileOptions(io), substitute: false })
    const written = withAppVariables(profile.server)
    const { launchArgs, env: given } = reference.query
    const literal =
      written.transport === 'http' ? { headers } : { args: launchArgs, env: { ...given, ...env } }
    return { written, literal }
  }
  const server = resolved.server
  if (server.transport === 'http') return { literal: { url: server.url, headers } }
  const literal: ProfileMeta = { command: server.command, args: server.args, env: { ...server.env, ...env } }
  if (server.cwd !== undefined) literal.cwd = server.cwd
  return { literal }
}

/** The module's server, source and regenerate command for a resolved reference and the flags. */
export async function moduleServer(
  resolved: ResolvedReference,
  args: GenerateArguments,
  out: string,
  io: Io,
): Promise<ModuleServer> {
  const registry = resolved.registry
  const secret = registry?.launch.inputs.find(
    (input) => input.secret && Object.hasOwn(registry.values, input.name),
  )
  if (registry !== undefined && secret !== undefined) {
    // The module is source code: a secret answer in its launch would be in the user's repository.
    throw new CliError(
      'usage',
      `${registry.name}@${registry.version} takes the secret ${secret.name}, which a generated module would hold: save the server as a profile (mcp-kit profile create NAME --from mcp+registry://${registry.name}@${registry.version}), which keeps it in the secret store, and generate from @NAME`,
    )
  }
  const passed = (args['pass-env'] ?? []).filter((name) => !name.includes('*'))
  const { written, literal } = await launchSettings(resolved, args, io)
  const separated = await separate(literal, passed)
  const env = templates(separated.env)
  const headers = templates(separated.headers)
  const has = (record: Record<string, string>) => Object.keys(record).length > 0
  let server: ServerSpec
  if (written?.transport === 'http' || (written === undefined && literal.url !== undefined)) {
    const url = written?.transport === 'http' ? written.url : asTemplate(separated.url ?? [])
    const all = { ...(written?.transport === 'http' ? written.headers : {}), ...headers }
    server = { transport: 'http', url, ...(has(all) ? { headers: all } : {}) }
  } else {
    const base = written?.transport === 'stdio' ? written : undefined
    const all = { ...base?.env, ...env }
    const cwd = base === undefined ? separated.cwd && asTemplate(separated.cwd) : base.cwd
    server = {
      transport: 'stdio',
      command: base?.command ?? asTemplate(separated.command ?? []),
      args: [...(base?.args ?? []), ...separated.args.map(asTemplate)],
      ...(has(all) ? { env: all } : {}),
      ...(cwd === undefined ? {} : { cwd }),
    }
  }

  const argumentParts = new Map(
    (literal.args ?? []).map((arg, index) => [arg, separated.args[index] ?? [arg]]),
  )
  const words: Parts[] = [['mcp-kit'], ['generate']]
  const given =
    args.reference === undefined ? undefined : referenceParts(args.reference, separated, argumentParts)
  if (given !== undefined) words.push(given)
  words.push(['--out'], [out])
  if (args.policy !== undefined) words.push(['--policy'], [args.policy])
  for (const name of Object.keys(pairs(args.env ?? [], '=')))
    words.push(['--env'], [`${name}=`, ...(separated.env.get(name) ?? [])])
  for (const name of passed) words.push(['--pass-env'], [name])
  for (const [name, parts] of separated.headers) words.push(['--header'], [`${name}: `, ...parts])
  let source = given === undefined ? '' : asText(given)
  if (args.serverCommand !== undefined) {
    const [command = '', ...rest] = args.serverCommand
    const line = [[command], ...rest.map((arg) => argumentParts.get(arg) ?? [arg])]
    words.push(['--'], ...line)
    const { describeServer } = await import('@mcp-kit/profiles')
    const [shown = '', ...shownArgs] = line.map(asText)
    source = `${source === '' ? '' : `${source} `}-- ${describeServer({ transport: 'stdio', command: shown, args: shownArgs })}`
  }
  const variables = [
    ...separated.args,
    ...separated.env.values(),
    ...separated.headers.values(),
    separated.url ?? [],
  ]
  return {
    server,
    ...(resolved.reference.type === 'profile' ? { profile: resolved.reference.profile } : {}),
    source,
    regenerate: words.map(asShellWord).join(' '),
    variables: [...new Set(variables.flatMap(variablesOf))].sort(),
  }
}
