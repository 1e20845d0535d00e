// A registry entry's package turned into the command line its runtime runs: npx, uvx, docker or
// dnx, with the entry's runtime and package arguments and environment, as an argument vector for
// spawn() without a shell. What mcp-kit cannot run here is `Unsupported` (the caller tries the
// next launch); what it would not run as written is refused.

import { isRecord } from '@mcp-kit/core'
import { ProfileError } from '../errors.js'
import type { RegistryArgument, RegistryPackage } from '../registry-types.js'
import type { StdioServerSpec } from '../types.js'
import { fieldText, fieldTexts, type InputContext, refuseControls } from './registry-inputs.js'

/** What was chosen from the entry: a package (`choice` names exactly it, `package:1`). */
export interface RegistryPackageSource {
  kind: 'package'
  choice: string
  registryType: string
  identifier: string
  version?: string
  runtimeHint: string
}

/** Why a package or remote cannot be run here (tried in turn when none was chosen). */
export class Unsupported extends Error {}

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

export function invalid(entry: string, message: string): ProfileError {
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
    const name = flag.replace(/^-+/, '')
    if (data.isRepeated === true)
      return fieldTexts(name, data, context).flatMap((text) => [context.literal(flag), text])
    const text = fieldText(name, 'argument', data, context)
    return text === undefined ? [] : [context.literal(flag), text]
  }
  if (data.type !== 'positional' && data.type !== undefined)
    throw invalid(
      context.entry,
      `${where}[${index}] has the unknown type ${JSON.stringify(String(data.type))}`,
    )
  const name = typeof data.valueHint === 'string' ? data.valueHint : `${where}[${index}]`
  if (data.isRepeated === true) return fieldTexts(name, data, context)
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

export function packageLaunch(
  pkg: RegistryPackage,
  choice: string,
  context: InputContext,
): { server: StdioServerSpec; source: RegistryPackageSource } {
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
  const source: RegistryPackageSource = {
    kind: 'package',
    choice,
    registryType: type,
    identifier,
    runtimeHint: hint,
  }
  if (version !== undefined) source.version = version
  return { server, source }
}
