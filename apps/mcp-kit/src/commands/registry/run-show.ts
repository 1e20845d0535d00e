// `mcp-kit registry show namespace/name[@version]`: one server's entry — versions, status,
// packages and remotes — and for each of its launches the command line or URL mcp-kit would run,
// with `<NAME>` where an input has no value yet (secret values given are never shown).

import type { RegistryAnswers, RegistryInput, RegistryServer } from '@mcp-kit/profiles'
import { CliError } from '../../base/errors.js'
import { type Io, useColor, write } from '../../base/io.js'
import { sanitizeLine } from '../../output/sanitize.js'
import { createStyle } from '../../output/style.js'
import { writeJson } from '../../output/write-records.js'
import { registryClient } from '../../registry/registry-client.js'
import type { RegistryArguments } from '../../registry/registry-flags.js'
import { registryAnswers } from '../../registry/resolve-registry.js'
import { type EntrySummary, summarize } from './entry-summary.js'

export interface ShowArguments extends RegistryArguments {
  name: string
  format?: 'text' | 'json'
}

export interface LaunchView {
  kind: 'package' | 'remote'
  /** What `--registry-choice` names exactly this launch: `package:1`, `remote:2`. */
  choice: string
  /** `npm @scope/pkg 1.2.0` or `streamable-http https://…/{tenant}`. */
  what: string
  /** The words spawned (a package), or undefined. */
  command?: string[]
  env?: Record<string, string>
  url?: string
  headers?: Record<string, string>
  inputs: RegistryInput[]
  /** Why mcp-kit would not run it. */
  refused?: string
  /** The launch a reference runs without --registry-choice (the first mcp-kit can run). */
  default?: boolean
  /** The launch the --registry-choice given names. */
  chosen?: boolean
}

export interface ShowDocument extends EntrySummary {
  registry: string
  versions: Array<{ version: string; status: string; isLatest?: boolean; publishedAt?: string }>
  websiteUrl?: string
  repository?: string
  /** What the registry says of this version (`_meta`). */
  meta: Record<string, unknown>
  launches: LaunchView[]
}

/** Each package and remote of an entry as it would run, and which one runs by default or by `choice`. */
export async function launchViews(
  server: RegistryServer,
  values: RegistryAnswers,
  choice?: string,
): Promise<LaunchView[]> {
  const { registryLaunch } = await import('@mcp-kit/profiles')
  const shown = (input: RegistryInput) => `<${input.name}>`
  const show = {
    values,
    placeholder: shown,
    answerText: (input: RegistryInput, value: string) => (input.secret ? shown(input) : value),
  }
  const one = (kind: LaunchView['kind'], index: number, what: string): LaunchView => {
    const choose = `${kind}:${index + 1}`
    try {
      const launch = registryLaunch(server, { ...show, choose })
      const view: LaunchView = { kind, choice: choose, what, inputs: launch.inputs }
      const spec = launch.server
      if (spec.transport === 'stdio') {
        view.command = [spec.command, ...spec.args]
        if (spec.env) view.env = spec.env
      } else {
        view.url = spec.url
        if (spec.headers) view.headers = spec.headers
      }
      return view
    } catch (error) {
      return { kind, choice: choose, what, inputs: [], refused: (error as Error).message }
    }
  }
  const views = [
    ...(Array.isArray(server.packages) ? server.packages : []).map((pkg, index) =>
      one('package', index, [pkg?.registryType, pkg?.identifier, pkg?.version].filter(Boolean).join(' ')),
    ),
    ...(Array.isArray(server.remotes) ? server.remotes : []).map((remote, index) =>
      one('remote', index, [remote?.type, remote?.url].filter(Boolean).join(' ')),
    ),
  ]
  const first = views.find((view) => view.refused === undefined)
  if (first !== undefined) first.default = true
  if (choice !== undefined) {
    // The one a reference would run with this choice (an unknown choice is refused with its reason).
    const picked = registryLaunch(server, { ...show, choose: choice }).source.choice
    const view = views.find((item) => item.choice === picked)
    if (view !== undefined) view.chosen = true
  }
  return views
}

function quote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./<>-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}

function renderInput(input: RegistryInput): string {
  const notes = [
    input.required ? 'required' : 'optional',
    input.repeated ? 'repeatable' : '',
    input.secret ? 'secret' : '',
    input.format ?? '',
  ]
  if (input.default !== undefined) notes.push(`default ${JSON.stringify(input.default)}`)
  if (input.choices !== undefined)
    notes.push(`one of ${input.choices.map((choice) => JSON.stringify(choice)).join(', ')}`)
  const about = input.description === undefined ? '' : ` — ${input.description}`
  return `${input.name} (${input.kind}; ${notes.filter(Boolean).join(', ')})${about}`
}

export function renderShow(document: ShowDocument, color: boolean): string {
  const style = createStyle(color)
  const line = (text: string) => sanitizeLine(text)
  const lines = [
    `${style.bold(line(document.name))} ${line(document.version)}${document.title ? ` — ${line(document.title)}` : ''}`,
  ]
  if (document.description) lines.push(line(document.description))
  const state = [document.status, document.isLatest ? 'latest' : ''].filter(Boolean).join(', ')
  lines.push(`Status: ${state}${document.statusMessage ? ` (${line(document.statusMessage)})` : ''}`)
  lines.push(
    `Versions: ${document.versions.map((item) => `${line(item.version)}${item.status === 'active' ? '' : ` (${item.status})`}`).join(', ')}`,
  )
  if (document.repository) lines.push(`Repository: ${line(document.repository)}`)
  if (document.websiteUrl) lines.push(`Website: ${line(document.websiteUrl)}`)
  lines.push(`Registry: ${line(document.registry)}`)
  for (const launch of document.launches) {
    const marks = [
      `--registry-choice ${launch.choice}`,
      launch.default ? 'the default' : '',
      launch.chosen ? 'chosen' : '',
    ]
    lines.push(
      '',
      `${style.accent(`${launch.kind === 'package' ? 'Package' : 'Remote'} ${line(launch.what)}`)} (${marks.filter(Boolean).join(', ')})`,
    )
    if (launch.refused !== undefined) {
      lines.push(`  not run by mcp-kit: ${line(launch.refused)}`)
      continue
    }
    if (launch.command) lines.push(`  runs: ${launch.command.map((word) => line(quote(word))).join(' ')}`)
    for (const [name, value] of Object.entries(launch.env ?? {}))
      lines.push(`  env ${line(name)}=${line(value)}`)
    if (launch.url) lines.push(`  url: ${line(launch.url)}`)
    for (const [name, value] of Object.entries(launch.headers ?? {}))
      lines.push(`  header ${line(name)}: ${line(value)}`)
    for (const input of launch.inputs) lines.push(`  input ${line(renderInput(input))}`)
  }
  return `${lines.join('\n')}\n`
}

export async function runShow(args: ShowArguments, io: Io): Promise<number> {
  const { isRegistryName } = await import('@mcp-kit/profiles')
  const at = args.name.indexOf('@')
  const name = at === -1 ? args.name : args.name.slice(0, at)
  const version = at === -1 ? undefined : args.name.slice(at + 1)
  if (!isRegistryName(name) || version === '')
    throw new CliError(
      'usage',
      `${JSON.stringify(args.name)} is not a registry server name (namespace/name[@version])`,
    )
  const client = await registryClient(args, io)
  const [entry, versions] = await Promise.all([
    client.getServer(name, version ?? 'latest'),
    client.listVersions(name),
  ])
  const server = entry.server
  const document: ShowDocument = {
    ...summarize(entry),
    registry: client.url,
    versions: versions.servers.map((item) => {
      const view: ShowDocument['versions'][number] = {
        version: String(item.server.version),
        status: String(item.official.status ?? 'active'),
      }
      if (typeof item.official.isLatest === 'boolean') view.isLatest = item.official.isLatest
      if (typeof item.official.publishedAt === 'string') view.publishedAt = item.official.publishedAt
      return view
    }),
    meta: entry.meta,
    launches: await launchViews(server, registryAnswers(args), args['registry-choice']),
  }
  if (typeof server.websiteUrl === 'string') document.websiteUrl = server.websiteUrl
  if (typeof server.repository?.url === 'string') document.repository = server.repository.url
  const format = args.format ?? (io.stdoutIsTTY ? 'text' : 'json')
  if (format === 'json') await writeJson(io, document)
  else await write(io.stdout, renderShow(document, useColor(io, 'stdout')))
  return 0
}
