// A registry entry (`server.json`) turned into a launch: a package becomes the command line its
// runtime runs (npx, uvx, docker, dnx — an argument vector for spawn() without a shell), a remote
// becomes a URL and headers. Pure: the entry and the answers come in, a ServerSpec goes out.
// Anything the entry says that mcp-kit would not run as written is refused, never adapted.

import { ProfileError } from './errors.js'
import {
  fieldText,
  fillTemplate,
  type InputContext,
  type RegistryInput,
  refuseControls,
  refuseMissing,
} from './registry-inputs.js'
import type {
  RegistryArgument,
  RegistryPackage,
  RegistryServer,
  RegistryTransport,
} from './registry-types.js'
import type { HttpServerSpec, ServerSpec, StdioServerSpec } from './types.js'

export type { RegistryInput } from './registry-inputs.js'

export interface RegistryLaunchOptions {
  /** Answers to the entry's inputs, by input name. */
  values?: Readonly<Record<string, string>>
  /**
   * Which of the entry's launches: `package`, `remote`, a registry type (`npm`, `pypi`, `oci`,
   * `nuget`) or a remote type (`streamable-http`, `sse`). Default: the first one mcp-kit can run,
   * packages before remotes.
   */
  choose?: string
  /** Turns the entry's literal text into what the caller writes (a profile escapes `${`). */
  literal?: (text: string) => string
  /** What is written for an answered input (a profile writes `${secret:…}` for a secret one). */
  answerText?: (input: RegistryInput, value: string) => string
  /**
   * Text for a required input that has no value (`<API_KEY>`): the launch is only shown, so a
   * missing value is no error.
   */
  placeholder?: (input: RegistryInput) => string
}

/** What was chosen from the entry. */
export type RegistryLaunchSource =
  | { kind: 'package'; registryType: string; identifier: string; version?: string; runtimeHint: string }
  | { kind: 'remote'; type: string; url: string }

export interface RegistryLaunch {
  server: ServerSpec
  source: RegistryLaunchSource
  /** Every input of the chosen launch, answered or not. */
  inputs: RegistryInput[]
}

/** Why a package or remote cannot be run here (tried in turn when none was chosen). */
class Unsupported extends Error {}

const runtimes: Record<string, { hints: string[]; defaultBase?: RegExp }> = {
  npm: { hints: ['npx'], defaultBase: /^https:\/\/registry\.npmjs\.org\/?$/ },
  pypi: { hints: ['uvx'], defaultBase: /^https:\/\/pypi\.org\/?$/ },
  oci: { hints: ['docker', 'podman'] },
  nuget: { hints: ['dnx'], defaultBase: /^https:\/\/api\.nuget\.org(?:\/v3\/index\.json)?\/?$/ },
}

const identifierPatterns: Record<string, RegExp> = {
  npm: /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/i,
  pypi: /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/,
  nuget: /^[A-Za-z0-9_](?:[A-Za-z0-9._-]*)$/,
  // registry/namespace/image, then :tag or @sha256:digest.
  oci: /^[a-z0-9](?:[a-z0-9._-]*[a-z0-9])?(?::[0-9]+)?(?:\/[a-z0-9](?:[a-z0-9._-]*[a-z0-9])?)*(?::[A-Za-z0-9_][A-Za-z0-9._-]{0,127}|@sha256:[a-f0-9]{64})?$/,
}
const exactVersion = /^[A-Za-z0-9][A-Za-z0-9.+_-]*$/

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function invalid(entry: string, message: string): ProfileError {
  return new ProfileError('invalid_reference', `registry entry ${entry}: ${message}`, { details: { entry } })
}

/** The words of one argument: a positional's value, or a named one's flag and value. */
function argumentWords(argument: unknown, index: number, where: string, context: InputContext): string[] {
  if (!isRecord(argument)) throw invalid(context.entry, `${where}[${index}] is not an object`)
  const data = argument as RegistryArgument
  if (data.type === 'named') {
    const flag = typeof data.name === 'string' ? data.name : ''
    if (!/^-{1,2}[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(flag))
      throw invalid(context.entry, `${where}[${index}] names the flag ${JSON.stringify(flag.slice(0, 80))}`)
    const text = fieldText(flag.replace(/^-+/, ''), 'argument', data, context)
    return text === undefined ? [] : [context.literal(flag), text]
  }
  if (data.type !== 'positional' && data.type !== undefined)
    throw invalid(
      context.entry,
      `${where}[${index}] has the unknown type ${JSON.stringify(String(data.type))}`,
    )
  const name = typeof data.valueHint === 'string' ? data.valueHint : `${where}[${index}]`
  const text = fieldText(name, 'argument', data, context)
  return text === undefined ? [] : [text]
}

function argumentList(list: unknown, where: string, context: InputContext): string[] {
  if (list === undefined) return []
  if (!Array.isArray(list)) throw invalid(context.entry, `${where} is not a list`)
  return list.flatMap((argument, index) => argumentWords(argument, index, where, context))
}

function environment(list: unknown, context: InputContext): Record<string, string> {
  const env: Record<string, string> = {}
  if (list === undefined) return env
  if (!Array.isArray(list)) throw invalid(context.entry, 'environmentVariables is not a list')
  for (const [index, item] of list.entries()) {
    const name = isRecord(item) && typeof item.name === 'string' ? item.name : ''
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw invalid(
        context.entry,
        `environmentVariables[${index}] names ${JSON.stringify(name.slice(0, 80))}, not a variable`,
      )
    const text = fieldText(name, 'env', item, context)
    if (text !== undefined)
      Object.defineProperty(env, name, { value: text, enumerable: true, writable: true, configurable: true })
  }
  return env
}

function packageLaunch(
  pkg: RegistryPackage,
  context: InputContext,
): { server: StdioServerSpec; source: RegistryLaunchSource } {
  const type = typeof pkg.registryType === 'string' ? pkg.registryType : ''
  if (type === 'mcpb') throw new Unsupported('an mcpb bundle (mcp-kit does not download and unpack bundles)')
  const runtime = runtimes[type]
  if (runtime === undefined)
    throw new Unsupported(`a package of registry type ${JSON.stringify(type.slice(0, 40))}`)
  const transport = isRecord(pkg.transport) ? pkg.transport.type : 'stdio'
  if (transport !== 'stdio' && transport !== undefined)
    throw new Unsupported(
      `a ${type} package that serves ${JSON.stringify(String(transport))} (start it yourself and use its URL)`,
    )
  const hint = pkg.runtimeHint ?? runtime.hints[0] ?? ''
  if (!runtime.hints.includes(hint))
    throw invalid(
      context.entry,
      `runtimeHint ${JSON.stringify(String(hint).slice(0, 40))} is not how ${type} packages run (${runtime.hints.join(', ')})`,
    )
  const identifier = typeof pkg.identifier === 'string' ? pkg.identifier : ''
  const pattern = identifierPatterns[type] as RegExp
  if (!pattern.test(identifier) || identifier.length > 255)
    throw invalid(context.entry, `${JSON.stringify(identifier.slice(0, 80))} is not a ${type} package name`)
  const version = typeof pkg.version === 'string' ? pkg.version : undefined
  if (
    type !== 'oci' &&
    (version === undefined || version === 'latest' || !exactVersion.test(version) || version.length > 255)
  )
    throw invalid(
      context.entry,
      `the ${type} package ${identifier} needs an exact version, not ${JSON.stringify(version ?? '')}`,
    )
  const base = typeof pkg.registryBaseUrl === 'string' ? pkg.registryBaseUrl : undefined
  const runtimeWords: string[] = []
  if (base !== undefined && !(runtime.defaultBase?.test(base) ?? true)) {
    if (type !== 'npm')
      throw new Unsupported(`a ${type} package from ${base} (only the public ${type} registry)`)
    if (!/^https?:\/\/[^\s]+$/.test(base))
      throw invalid(context.entry, `registryBaseUrl ${JSON.stringify(base.slice(0, 80))} is not a URL`)
    runtimeWords.push(`--registry=${refuseControls(base, 'registryBaseUrl', context.entry)}`)
  }
  const env = environment(pkg.environmentVariables, context)
  runtimeWords.push(...argumentList(pkg.runtimeArguments, 'runtimeArguments', context))
  const packageWords = argumentList(pkg.packageArguments, 'packageArguments', context)
  let args: string[]
  switch (type) {
    case 'npm':
      args = [
        ...(runtimeWords.includes('-y') || runtimeWords.includes('--yes') ? [] : ['-y']),
        ...runtimeWords,
        `${identifier}@${version}`,
        ...packageWords,
      ]
      break
    case 'pypi':
      args = [...runtimeWords, `${identifier}==${version}`, ...packageWords]
      break
    case 'nuget':
      args = [...runtimeWords, `${identifier}@${version}`, '--yes', '--', ...packageWords]
      break
    default: {
      // The image's environment comes from the docker process's own (`-e NAME`, no value on argv).
      const tagged =
        /[:@][^/]*$/.test(identifier.split('/').at(-1) ?? '') || version === undefined
          ? identifier
          : `${identifier}:${version}`
      const envWords = Object.keys(env).flatMap((name) => ['-e', name])
      args = ['run', '-i', '--rm', ...envWords, ...runtimeWords, tagged, ...packageWords]
    }
  }
  const server: StdioServerSpec = { transport: 'stdio', command: hint, args }
  if (Object.keys(env).length > 0) server.env = env
  const source: RegistryLaunchSource = { kind: 'package', registryType: type, identifier, runtimeHint: hint }
  if (version !== undefined) source.version = version
  return { server, source }
}

function remoteLaunch(
  remote: RegistryTransport,
  context: InputContext,
): { server: HttpServerSpec; source: RegistryLaunchSource } {
  const type = typeof remote.type === 'string' ? remote.type : ''
  if (type !== 'streamable-http' && type !== 'sse')
    throw new Unsupported(`a remote of type ${JSON.stringify(type.slice(0, 40))}`)
  const template = typeof remote.url === 'string' ? remote.url : ''
  // A value inside the URL is one component of it; a leading `{baseUrl}` is a URL of its own.
  const url = fillTemplate(
    template,
    remote.variables,
    context,
    (value, atStart) => (atStart ? value : encodeURIComponent(value)),
    'the remote URL',
  )
  if (!url.includes('${')) {
    let parsed: URL | undefined
    try {
      parsed = new URL(url)
    } catch {}
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || /[{}]/.test(url)) {
      const missing = context.inputs.some((input) => input.required && !input.answered)
      if (!missing)
        throw invalid(
          context.entry,
          `the remote URL ${JSON.stringify(url.slice(0, 200))} is not an http(s) URL`,
        )
    }
  }
  const headers: Record<string, string> = {}
  const list = remote.headers
  if (list !== undefined && !Array.isArray(list)) throw invalid(context.entry, 'headers is not a list')
  for (const [index, item] of (list ?? []).entries()) {
    const name = isRecord(item) && typeof item.name === 'string' ? item.name : ''
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw invalid(
        context.entry,
        `headers[${index}] names ${JSON.stringify(name.slice(0, 80))}, not a header`,
      )
    const text = fieldText(name, 'header', item, context)
    if (text !== undefined)
      Object.defineProperty(headers, name, {
        value: text,
        enumerable: true,
        writable: true,
        configurable: true,
      })
  }
  const server: HttpServerSpec = { transport: 'http', url }
  if (Object.keys(headers).length > 0) server.headers = headers
  return { server, source: { kind: 'remote', type, url: template } }
}

function candidates(
  server: RegistryServer,
  choose: string | undefined,
): Array<RegistryPackage | RegistryTransport> {
  const packages = (Array.isArray(server.packages) ? server.packages : []).filter(
    isRecord,
  ) as RegistryPackage[]
  const remotes = (Array.isArray(server.remotes) ? server.remotes : []).filter(
    isRecord,
  ) as RegistryTransport[]
  if (choose === undefined) return [...packages, ...remotes]
  if (choose === 'package') return packages
  if (choose === 'remote') return remotes
  return [
    ...packages.filter((pkg) => pkg.registryType === choose),
    ...remotes.filter((remote) => remote.type === choose),
  ]
}

/**
 * Turns a registry entry into a launch. Errors are `ProfileError`s: `invalid_reference` (the
 * entry says something mcp-kit will not run, or nothing it can), `missing_input` (required values
 * without an answer, all named in `details.missing`), `invalid_input` (an answer that does not fit).
 */
export function registryLaunch(server: RegistryServer, options: RegistryLaunchOptions = {}): RegistryLaunch {
  const entry = `${typeof server.name === 'string' ? server.name.slice(0, 200) : '(unnamed)'}${typeof server.version === 'string' ? `@${server.version.slice(0, 80)}` : ''}`
  const list = candidates(server, options.choose)
  const refusals: string[] = []
  for (const candidate of list) {
    const context: InputContext = {
      values: options.values ?? {},
      literal: options.literal ?? ((text) => text),
      answerText: options.answerText ?? ((_input, value) => value),
      inputs: [],
      entry,
      ...(options.placeholder === undefined ? {} : { placeholder: options.placeholder }),
    }
    try {
      const isPackage = (server.packages as unknown[] | undefined)?.includes(candidate) === true
      const launch = isPackage
        ? packageLaunch(candidate as RegistryPackage, context)
        : remoteLaunch(candidate as RegistryTransport, context)
      if (options.placeholder === undefined) refuseMissing(context)
      return { ...launch, inputs: context.inputs }
    } catch (error) {
      if (!(error instanceof Unsupported)) throw error
      refusals.push(error.message)
    }
  }
  const what = options.choose === undefined ? '' : ` of the kind ${JSON.stringify(options.choose)}`
  throw new ProfileError(
    'invalid_reference',
    list.length === 0
      ? `registry entry ${entry} has no package or remote${what} to run`
      : `registry entry ${entry} has nothing mcp-kit can run${what}: it offers ${refusals.join('; ')}`,
    { details: { entry } },
  )
}
