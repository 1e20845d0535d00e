// The registry's publishing rules that its JSON Schema does not say: the name's reverse-DNS
// namespace, exact versions (no ranges, no `latest`), package identifiers as each package
// registry spells them, runtime hints, and transports whose URLs and `{variables}` agree. Each
// rule names the JSON pointer it is about; lint-server-json.ts turns that into a line.

import { isRecord } from '@mcp-kit/core'
import { isRegistryName, type RegistryServer } from '@mcp-kit/profiles'

export interface RuleProblem {
  pointer: string
  rule: string
  message: string
  severity: 'error' | 'warning'
}

const label = /^[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?$/
const serverPart = /^[a-zA-Z0-9](?:[a-zA-Z0-9._-]*[a-zA-Z0-9])?$/
const semver = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/
const identifiers: Record<string, RegExp> = {
  npm: /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/,
  pypi: /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/,
  nuget: /^[A-Za-z0-9_][A-Za-z0-9._-]*$/,
  oci: /^[a-z0-9](?:[a-z0-9._-]*[a-z0-9])?(?::[0-9]+)?(?:\/[a-z0-9](?:[a-z0-9._-]*[a-z0-9])?)*(?::[A-Za-z0-9_][A-Za-z0-9._-]{0,127}|@sha256:[a-f0-9]{64})?$/,
}
const runtimeHints: Record<string, string[]> = {
  npm: ['npx'],
  pypi: ['uvx'],
  oci: ['docker', 'podman'],
  nuget: ['dnx'],
  mcpb: [],
}

/** Why a version is not one exact version, or undefined when it is. */
export function versionProblem(version: string): string | undefined {
  if (version.trim() === '') return 'is empty'
  if (version === 'latest') return "is 'latest'; give the exact version"
  if (/^[\^~<>=]|\|\||\s-\s|[*]|(?:^|\.)[xX](?:\.|$)|\s/.test(version))
    return 'is a range; give one exact version (as 1.2.3)'
  return undefined
}

/** `{name}` placeholders of a template. */
function placeholders(template: string): string[] {
  return [...template.matchAll(/\{([A-Za-z_][A-Za-z0-9_.-]*)\}/g)].map((match) => match[1] as string)
}

export function publishingRules(server: RegistryServer): RuleProblem[] {
  const problems: RuleProblem[] = []
  const add = (pointer: string, rule: string, message: string, severity: RuleProblem['severity'] = 'error') =>
    problems.push({ pointer, rule, message, severity })

  if (typeof server.name === 'string') {
    const [namespace = '', name = '', ...rest] = server.name.split('/')
    if (rest.length > 0 || !isRegistryName(server.name)) {
      add('/name', 'name', 'must be namespace/name with exactly one slash (as io.github.owner/server)')
    } else {
      const labels = namespace.split('.')
      if (labels.length < 2 || !labels.every((part) => label.test(part)))
        add(
          '/name',
          'name',
          `namespace '${namespace}' is not reverse-DNS (as io.github.owner or com.example)`,
        )
      if (!serverPart.test(name)) add('/name', 'name', `'${name}' must start and end with a letter or digit`)
    }
  }
  if (typeof server.version === 'string') {
    const problem = versionProblem(server.version)
    if (problem !== undefined) add('/version', 'version', `version ${problem}`)
    else if (!semver.test(server.version))
      add(
        '/version',
        'version',
        'is not semantic versioning (1.2.3): versions will not sort predictably',
        'warning',
      )
  }
  if (typeof server.$schema !== 'string')
    add('', 'schema', "has no '$schema': name the server.schema.json it follows", 'warning')
  const packages = Array.isArray(server.packages) ? server.packages : []
  const remotes = Array.isArray(server.remotes) ? server.remotes : []
  if (packages.length === 0 && remotes.length === 0)
    add('', 'launch', "has neither 'packages' nor 'remotes': clients have nothing to run", 'warning')

  packages.forEach((pkg, index) => {
    if (!isRecord(pkg)) return
    const at = `/packages/${index}`
    const type = typeof pkg.registryType === 'string' ? pkg.registryType : ''
    const identifier = typeof pkg.identifier === 'string' ? pkg.identifier : undefined
    if (!(type in runtimeHints))
      add(
        `${at}/registryType`,
        'package',
        `'${type}' is not a package registry the registry knows (npm, pypi, oci, nuget, mcpb)`,
      )
    const pattern = identifiers[type]
    if (identifier !== undefined && pattern !== undefined && !pattern.test(identifier))
      add(`${at}/identifier`, 'package', `'${identifier}' is not a valid ${type} package name`)
    if (type === 'mcpb') {
      if (identifier !== undefined && !/^https:\/\/\S+$/.test(identifier))
        add(`${at}/identifier`, 'package', 'an mcpb package is named by the https:// URL of its file')
      if (typeof pkg.fileSha256 !== 'string') add(at, 'package', "an mcpb package needs 'fileSha256'")
    }
    if (typeof pkg.version === 'string') {
      const problem = versionProblem(pkg.version)
      if (problem !== undefined) add(`${at}/version`, 'version', `package version ${problem}`)
    }
    const hints = runtimeHints[type]
    if (
      typeof pkg.runtimeHint === 'string' &&
      hints !== undefined &&
      hints.length > 0 &&
      !hints.includes(pkg.runtimeHint)
    )
      add(
        `${at}/runtimeHint`,
        'package',
        `'${pkg.runtimeHint}' is not how ${type} packages run (${hints.join(', ')})`,
      )
    if (
      Array.isArray(pkg.runtimeArguments) &&
      pkg.runtimeArguments.length > 0 &&
      pkg.runtimeHint === undefined
    )
      add(at, 'package', "has 'runtimeArguments' but no 'runtimeHint' to say what takes them", 'warning')
    const names = new Set<string>()
    const envNames = new Set<string>()
    for (const list of ['runtimeArguments', 'packageArguments'] as const) {
      const items = Array.isArray(pkg[list]) ? (pkg[list] as unknown[]) : []
      items.forEach((argument, position) => {
        if (!isRecord(argument)) return
        if (argument.type === 'named') {
          if (typeof argument.name === 'string' && !argument.name.startsWith('-'))
            add(
              `${at}/${list}/${position}/name`,
              'argument',
              `a named argument is a flag with its dashes ('--${argument.name}')`,
            )
          if (typeof argument.name === 'string') names.add(argument.name.replace(/^-+/, ''))
        }
        if (typeof argument.valueHint === 'string') names.add(argument.valueHint)
      })
    }
    const env = Array.isArray(pkg.environmentVariables) ? pkg.environmentVariables : []
    env.forEach((variable, position) => {
      if (!isRecord(variable) || typeof variable.name !== 'string') return
      if (envNames.has(variable.name))
        add(`${at}/environmentVariables/${position}/name`, 'environment', `'${variable.name}' is given twice`)
      envNames.add(variable.name)
    })
    const transport = isRecord(pkg.transport) ? pkg.transport : undefined
    if (transport?.type === 'stdio' && transport.url !== undefined)
      add(`${at}/transport/url`, 'transport', "a stdio transport has no 'url'")
    if (
      (transport?.type === 'streamable-http' || transport?.type === 'sse') &&
      typeof transport.url === 'string'
    ) {
      for (const name of placeholders(transport.url)) {
        if (!names.has(name) && !envNames.has(name))
          add(
            `${at}/transport/url`,
            'transport',
            `{${name}} in the URL is no argument or environment variable of this package`,
          )
      }
    }
  })

  remotes.forEach((remote, index) => {
    if (!isRecord(remote)) return
    const at = `/remotes/${index}`
    if (remote.type === 'stdio')
      add(`${at}/type`, 'transport', 'a remote is reached over streamable-http or sse, not stdio')
    if (typeof remote.url !== 'string') return
    const variables = isRecord(remote.variables) ? remote.variables : {}
    for (const name of placeholders(remote.url)) {
      if (!Object.hasOwn(variables, name))
        add(`${at}/url`, 'transport', `{${name}} in the URL is not one of the remote's 'variables'`)
    }
    const filled = remote.url.replace(/\{[^}]*\}/g, 'x')
    if (!/^\{/.test(remote.url)) {
      let url: URL | undefined
      try {
        url = new URL(filled)
      } catch {}
      if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:'))
        add(`${at}/url`, 'transport', 'is not an http(s) URL')
      else if (url.protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname))
        add(`${at}/url`, 'transport', 'is plain http: clients would send credentials in the clear', 'warning')
    }
  })
  return problems
}
