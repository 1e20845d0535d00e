// `mcp-kit profile import [file]`: the server lists of other MCP clients' configs as profiles.

import { readFile } from 'node:fs/promises'
import type { ProfileMeta } from '@mcp-kit/profiles'
import { CliError } from '../../cli/errors.js'
import { exitCodes } from '../../cli/exit-codes.js'
import { type Io, writeLine } from '../../cli/io.js'
import { writeDiagnostic } from '../../output/diagnostics.js'
import { writeRoot } from './locations.js'

export interface ImportArguments {
  file?: string
  only?: string[]
  discover?: boolean
  project?: boolean
  force?: boolean
  quiet?: boolean
}

export async function runProfileImport(args: ImportArguments, io: Io): Promise<number> {
  const { clientConfigLocations, parseClientConfig, writeProfile } = await import('@mcp-kit/profiles')
  let files: Array<{ client: string; path: string }>
  if (args.discover) {
    const candidates = clientConfigLocations({ env: io.env, cwd: io.cwd })
    files = []
    for (const candidate of candidates) {
      if (
        await readFile(candidate.path).then(
          () => true,
          () => false,
        )
      )
        files.push(candidate)
    }
    if (files.length === 0) {
      await writeLine(
        io.stdout,
        `no MCP client configs found; looked at:\n  ${candidates.map((candidate) => `${candidate.path} (${candidate.client})`).join('\n  ')}`,
      )
      return exitCodes.ok
    }
  } else if (args.file) {
    files = [{ client: 'config', path: args.file }]
  } else {
    throw new CliError('usage', 'say which file to import, or use --discover')
  }
  const { root, scope } = await writeRoot(io, args.project)
  const wanted = new Set(args.only ?? [])
  const found = new Set<string>()
  const imported: string[] = []
  const skipped: string[] = []
  for (const file of files) {
    let text: string
    try {
      text = await readFile(file.path, 'utf8')
    } catch (error) {
      throw new CliError(
        'usage',
        `cannot read ${file.path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
      )
    }
    const config = parseClientConfig(text, file.path, { cwd: io.cwd })
    for (const entry of config.skipped) skipped.push(`${entry.name} in ${file.path} (${entry.reason})`)
    for (const server of config.servers) {
      if (wanted.size > 0 && !wanted.has(server.name) && !wanted.has(server.sourceName)) continue
      found.add(server.name).add(server.sourceName)
      if (imported.includes(server.name)) {
        skipped.push(`${server.sourceName} in ${file.path} (imported from an earlier file)`)
        continue
      }
      const meta: ProfileMeta = { description: `Imported from ${file.client} (${file.path})`, ...server.meta }
      try {
        await writeProfile(server.name, { meta, tools: {} }, { root, scope, force: args.force })
        imported.push(server.name)
      } catch (error) {
        if (!(error as { message?: string }).message?.includes('already exists')) throw error
        skipped.push(`${server.name} (already exists; --force to replace it)`)
      }
    }
  }
  const missing = [...wanted].filter((name) => !found.has(name))
  if (missing.length > 0)
    throw new CliError('usage', `not in ${files.map((file) => file.path).join(', ')}: ${missing.join(', ')}`)
  await writeLine(
    io.stdout,
    imported.length > 0
      ? `imported ${imported.map((name) => `@${name}`).join(', ')} into ${root}`
      : 'nothing imported',
  )
  if (skipped.length > 0 && !args.quiet) writeDiagnostic(io, `skipped ${skipped.join('; ')}`)
  return exitCodes.ok
}

/** `--save <name>` on inspect and cat: the naked reference just used, saved as a profile. */
