// Parses server references — naked `mcp+{launcher}://target?query` and `@profile/tool?query` —
// into plain data. Pure: no file system, no environment. Launch commands are argument vectors
// for spawn() without a shell; nothing in a reference is ever interpreted by a shell.

import { ProfileError } from '../errors.js'
import { assertValidName } from '../names.js'
import type {
  HttpServerSpec,
  Launcher,
  NakedReference,
  ProfileReference,
  ReferenceQuery,
  RegistryReference,
  StdioServerSpec,
} from '../types.js'
import { type OperationPicker, pickFromQuery } from './operation.js'
import { decodeComponent, parseQuery } from './query.js'
import { parseRegistryReference } from './registry-reference.js'
import { maxReferenceLength, refuseControlCharacters, refuseLeadingDash } from './text-checks.js'

/** The launchers a naked reference may name (`mcp+<launcher>://…`). */
export const launchers: readonly Launcher[] = ['uvx', 'npx', 'python', 'node', 'http', 'https']

// npm package spec: optional scope, name, optional @version/@tag/@range (no spaces, no shell syntax).
const npmSpecPattern = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*(?:@[a-z0-9.+^~<>=*_-]+)?$/i
// PyPI requirement as uv accepts it after --with: name, optional [extras], optional version specifier.
const pypiSpecPattern =
  /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?(?:\[[A-Za-z0-9._,-]+\])?(?:(?:===|==|!=|~=|>=|<=|>|<)[A-Za-z0-9.*+!_-]+)?$/
const executableNamePattern = /^[A-Za-z0-9][A-Za-z0-9._-]*$/

function checkLaunchParts(query: ReferenceQuery): void {
  if (query.command !== undefined) {
    if (query.command === '')
      throw new ProfileError('invalid_reference', 'malformed query: command= is empty')
    refuseControlCharacters(query.command, 'command=')
    refuseLeadingDash(query.command, 'command=')
  }
  for (const [index, value] of query.launchArgs.entries())
    refuseControlCharacters(value, `arg= #${index + 1}`)
}

function subcommand(query: ReferenceQuery): string[] {
  return query.command === undefined ? [] : [query.command]
}

function stdioSpec(command: string, args: string[], query: ReferenceQuery): StdioServerSpec {
  const spec: StdioServerSpec = {
    transport: 'stdio',
    command,
    args: [...args, ...subcommand(query), ...query.launchArgs],
  }
  if (Object.keys(query.env).length > 0) spec.env = { ...query.env }
  return spec
}

/** The command uv runs when the target names only a package: the package name without extras or version. */
function defaultUvCommand(requirement: string): string {
  return requirement.replace(/\[.*$/, '').replace(/(?:===|==|!=|~=|>=|<=|>|<).*$/, '')
}

function uvxSpec(target: string, query: ReferenceQuery): StdioServerSpec {
  const parts = target.split('/')
  if (parts.length > 2) {
    throw new ProfileError(
      'invalid_reference',
      `mcp+uvx target ${JSON.stringify(target)} must be {package} or {package}/{command}`,
    )
  }
  const [requirement = '', command = defaultUvCommand(requirement)] = parts
  if (!pypiSpecPattern.test(requirement)) {
    throw new ProfileError(
      'invalid_reference',
      `mcp+uvx: ${JSON.stringify(requirement)} is not a valid Python package requirement`,
    )
  }
  if (!executableNamePattern.test(command)) {
    throw new ProfileError(
      'invalid_reference',
      `mcp+uvx: ${JSON.stringify(command)} is not a valid command name`,
    )
  }
  return stdioSpec('uv', ['run', '--with', requirement, command], query)
}

function npxSpec(target: string, query: ReferenceQuery): StdioServerSpec {
  if (!npmSpecPattern.test(target)) {
    throw new ProfileError(
      'invalid_reference',
      `mcp+npx: ${JSON.stringify(target)} is not an npm package spec (name, @scope/name, optionally @version); for other launch commands write a profile`,
    )
  }
  return stdioSpec('npx', ['-y', target], query)
}

function scriptSpec(
  interpreter: string,
  target: string,
  query: ReferenceQuery,
  launcher: string,
): StdioServerSpec {
  refuseLeadingDash(target, `mcp+${launcher} path`)
  return stdioSpec(interpreter, [target], query)
}

function httpSpec(launcher: 'http' | 'https', rawTarget: string, query: ReferenceQuery): HttpServerSpec {
  if (query.command !== undefined || query.launchArgs.length > 0 || Object.keys(query.env).length > 0) {
    throw new ProfileError(
      'invalid_reference',
      `malformed query: command=, arg= and env.* apply to launched servers, not to mcp+${launcher}:// URLs (use --header for HTTP)`,
    )
  }
  if (rawTarget.includes('#')) {
    throw new ProfileError('invalid_reference', `mcp+${launcher}: a URL fragment (#…) is not allowed`)
  }
  const text = `${launcher}://${rawTarget}`
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new ProfileError('invalid_reference', `mcp+${launcher}: ${JSON.stringify(text)} is not a valid URL`)
  }
  if (url.hostname === '') throw new ProfileError('invalid_reference', `mcp+${launcher}: the URL has no host`)
  if (url.username !== '' || url.password !== '') {
    throw new ProfileError(
      'invalid_reference',
      `mcp+${launcher}: credentials in the URL are not supported; use --header 'Authorization: …'`,
    )
  }
  return { transport: 'http', url: url.href }
}

function parseProfileReference(input: string, pick: OperationPicker): ProfileReference {
  const questionMark = input.indexOf('?')
  const path = questionMark === -1 ? input.slice(1) : input.slice(1, questionMark)
  const query = parseQuery(questionMark === -1 ? '' : input.slice(questionMark + 1))
  const segments = path.split('/')
  if (segments.length > 2) {
    throw new ProfileError(
      'invalid_reference',
      `profile reference ${JSON.stringify(input)} must be @server, @server/tool or @server?query`,
    )
  }
  const profile = decodeComponent(segments[0] ?? '', 'profile name')
  if (profile === '') throw new ProfileError('invalid_reference', 'empty profile name after @')
  assertValidName(profile, 'profile')
  let tool: string | undefined
  if (segments.length === 2) {
    tool = decodeComponent(segments[1] ?? '', 'tool name')
    assertValidName(tool, 'tool')
  }
  if (query.command !== undefined) {
    throw new ProfileError(
      'invalid_reference',
      'malformed query: command= applies to naked references; a profile sets its command',
    )
  }
  checkLaunchParts(query)
  const reference: ProfileReference = { type: 'profile', profile, ...pick(query, tool) }
  if (tool !== undefined) reference.tool = tool
  return reference
}

function notAReference(input: string): ProfileError {
  let hint =
    'expected mcp+npx://package, mcp+uvx://package, mcp+node://path, mcp+python://path, mcp+http(s)://host/path, mcp+registry://namespace/name or @profile'
  if (/\.(?:m?js|cjs)$/.test(input)) hint = `did you mean mcp+node://${input}?`
  else if (/\.py$/.test(input)) hint = `did you mean mcp+python://${input}?`
  return new ProfileError(
    'invalid_reference',
    `not a server reference: ${JSON.stringify(input.slice(0, 200))}; ${hint}`,
  )
}

/** Parses a server reference. Throws `ProfileError` (`invalid_reference`) and nothing else. */
export function parseReference(input: string): NakedReference | ProfileReference | RegistryReference {
  return readReference(input, pickFromQuery)
}

/** parseReference, with `pick` choosing the operation from the query (see operation.ts). */
export function readReference(
  input: string,
  pick: OperationPicker,
): NakedReference | ProfileReference | RegistryReference {
  if (typeof input !== 'string')
    throw new ProfileError('invalid_reference', 'a server reference must be a string')
  if (input.length > maxReferenceLength) {
    throw new ProfileError(
      'invalid_reference',
      `reference is too long (${input.length} characters; the limit is ${maxReferenceLength})`,
    )
  }
  refuseControlCharacters(input, 'reference')
  if (input === '') throw new ProfileError('invalid_reference', 'empty server reference')
  if (input.startsWith('@')) return parseProfileReference(input, pick)

  const schemeMatch = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(input)
  if (!schemeMatch) throw notAReference(input)
  const scheme = (schemeMatch[1] ?? '').toLowerCase()
  if (scheme === 'mcp+registry') {
    const rest = input.slice(schemeMatch[0].length)
    const questionMark = rest.indexOf('?')
    const query = parseQuery(questionMark === -1 ? '' : rest.slice(questionMark + 1))
    checkLaunchParts(query)
    return parseRegistryReference(questionMark === -1 ? rest : rest.slice(0, questionMark), query, pick)
  }
  const launcherName = scheme.startsWith('mcp+') ? scheme.slice(4) : scheme
  if (
    !(launchers as readonly string[]).includes(launcherName) ||
    (!scheme.startsWith('mcp+') && !launcherName.startsWith('http'))
  ) {
    throw new ProfileError(
      'invalid_reference',
      `unknown launcher '${scheme}': expected one of ${[...launchers, 'registry'].map((name) => `mcp+${name}`).join(', ')}`,
      { details: { scheme } },
    )
  }
  const launcher = launcherName as Launcher
  const rest = input.slice(schemeMatch[0].length)
  const questionMark = rest.indexOf('?')
  const rawTarget = questionMark === -1 ? rest : rest.slice(0, questionMark)
  const query = parseQuery(questionMark === -1 ? '' : rest.slice(questionMark + 1))
  const target =
    launcher === 'http' || launcher === 'https' ? rawTarget : decodeComponent(rawTarget, 'target')
  if (target === '') throw new ProfileError('invalid_reference', `empty target in ${scheme}:// reference`)
  refuseControlCharacters(target, `mcp+${launcher} target`)
  checkLaunchParts(query)

  let server: NakedReference['server']
  switch (launcher) {
    case 'uvx':
      server = uvxSpec(target, query)
      break
    case 'npx':
      server = npxSpec(target, query)
      break
    case 'python':
      server = scriptSpec('python3', target, query, launcher)
      break
    case 'node':
      server = scriptSpec('node', target, query, launcher)
      break
    case 'http':
    case 'https':
      server = httpSpec(launcher, target, query)
      break
  }
  return { type: 'naked', launcher, target, server, ...pick(query) }
}
