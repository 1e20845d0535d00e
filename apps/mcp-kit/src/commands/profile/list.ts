// `mcp-kit profile list` and `mcp-kit profile info <profile>`: what is saved, for people or scripts.

import { readFile } from 'node:fs/promises'
import type { ProfileMeta, ProfileScope } from '@mcp-kit/profiles'
import { exitCodes } from '../../base/exit-codes.js'
import { type Io, useColor, writeLine } from '../../base/io.js'
import { clip, sanitizeLine } from '../../output/sanitize.js'
import { createStyle } from '../../output/style.js'
import { writeJson } from '../../output/write-records.js'
import { profileOptions } from '../../session/reference.js'
import { profileName } from '../shared/profile/locations.js'

export interface ListArguments {
  format: 'text' | 'json'
}

interface ListedProfile {
  name: string
  scope: ProfileScope
  path: string
  form: 'directory' | 'file'
  active: boolean
  transport: 'stdio' | 'http' | 'invalid'
  schemaHash: string | null
  problem?: string
}

export async function runProfileList(args: ListArguments, io: Io): Promise<number> {
  const { listProfiles } = await import('@mcp-kit/profiles')
  const { parseJsonFile } = await import('@mcp-kit/profiles/internal')
  const listed: ListedProfile[] = []
  for (const summary of await listProfiles(profileOptions(io))) {
    const entry: ListedProfile = {
      name: summary.name,
      scope: summary.scope,
      path: summary.path,
      form: summary.form,
      active: summary.active,
      transport: 'invalid',
      schemaHash: null,
    }
    try {
      const meta = parseJsonFile(await readFile(summary.metaPath, 'utf8'), summary.metaPath) as ProfileMeta
      entry.transport = typeof meta.url === 'string' ? 'http' : 'stdio'
      entry.schemaHash = typeof meta.schema_hash === 'string' ? meta.schema_hash : null
    } catch (error) {
      entry.problem = (error as Error).message
    }
    listed.push(entry)
  }
  if (args.format === 'json') {
    await writeJson(io, listed, 2)
    return exitCodes.ok
  }
  if (listed.length === 0) {
    await writeLine(
      io.stdout,
      'no profiles yet: create one with mcp-kit profile create <name> --from <reference>',
    )
    return exitCodes.ok
  }
  const rows = [['NAME', 'SCOPE', 'TRANSPORT', 'HASH', 'PATH']]
  for (const entry of listed) {
    const hash = entry.schemaHash ? `${entry.schemaHash.slice(0, 19)}…` : '-'
    const name = entry.active ? entry.name : `${entry.name} (hidden)`
    rows.push([
      name,
      entry.scope,
      entry.problem ? 'invalid' : entry.transport,
      hash,
      sanitizeLine(entry.path),
    ])
  }
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? []
  await writeLine(
    io.stdout,
    rows
      .map((row) =>
        row
          .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
          .join('  '),
      )
      .join('\n'),
  )
  return exitCodes.ok
}

export interface InfoArguments {
  profile: string
  format: 'text' | 'json'
}

export async function runProfileInfo(args: InfoArguments, io: Io): Promise<number> {
  const { loadProfile, loadProfileDocument, describeServer } = await import('@mcp-kit/profiles')
  const profile = await loadProfile(profileName(args.profile), { ...profileOptions(io), substitute: false })
  const document = await loadProfileDocument(profile)
  if (args.format === 'json') {
    await writeJson(
      io,
      { name: profile.location.name, location: profile.location, meta: document.meta, tools: document.tools },
      2,
    )
    return exitCodes.ok
  }
  // Descriptions and tool names in a profile were written by the server it was saved from.
  const style = createStyle(useColor(io, 'stdout'))
  const meta = document.meta
  const lines = [
    `${style.bold(`@${profile.location.name}`)}  ${profile.location.scope}  ${sanitizeLine(profile.location.path)}`,
    sanitizeLine(`launch: ${describeServer(profile.server)}`),
  ]
  if (meta.description) lines.push(`description: ${clip(meta.description, 200)}`)
  if (profile.server.transport === 'stdio' && profile.server.env)
    lines.push(
      sanitizeLine(
        `env: ${Object.entries(profile.server.env)
          .map(([key, value]) => `${key}=${value}`)
          .join(' ')}`,
      ),
    )
  if (profile.server.transport === 'http' && profile.server.headers)
    lines.push(
      sanitizeLine(
        `headers: ${Object.entries(profile.server.headers)
          .map(([key, value]) => `${key}: ${value}`)
          .join(', ')}`,
      ),
    )
  lines.push(
    sanitizeLine(
      `schema: ${meta.schema_hash ?? '(none stored)'}${meta.schema_updated ? ` (${meta.schema_updated})` : ''}; on change: ${profile.schemaValidation}`,
    ),
  )
  if (profile.toolFilter)
    lines.push(sanitizeLine(`tools filter: ${profile.toolFilter.join(', ') || '(none)'}`))
  if (profile.concurrency !== undefined) lines.push(`put: ${profile.concurrency} calls at a time`)
  const entries = Object.entries(document.tools)
  lines.push('', style.bold(`Tools (${entries.length})`))
  for (const [name, entry] of entries) {
    const alias = entry.tool && entry.tool !== name ? ` → ${sanitizeLine(entry.tool)}` : ''
    const defaults = entry.defaults ? `  defaults ${sanitizeLine(JSON.stringify(entry.defaults))}` : ''
    const description = clip(entry.description, 80)
    lines.push(
      `  ${style.accent(sanitizeLine(name))}${alias}${defaults}${description ? `  ${style.dim(description)}` : ''}`,
    )
  }
  await writeLine(io.stdout, lines.join('\n'))
  return exitCodes.ok
}
