// `mcp-kit registry search [term]`: the registry's servers page by page (following `nextCursor`)
// up to --limit; NDJSON records for scripts, a table on a terminal. Deprecated entries are shown
// with a warning; deleted ones only with --include-deleted.

import { CliError } from '../../base/errors.js'
import { type Io, write } from '../../base/io.js'
import { diagnostics } from '../../output/diagnostics.js'
import { sanitizeLine } from '../../output/sanitize.js'
import { writeRecords } from '../../output/write-records.js'
import { registryClient } from '../../registry/registry-client.js'
import type { RegistryArguments } from '../../registry/registry-flags.js'
import { type EntrySummary, searchRow, summarize, table } from './entry-summary.js'

export interface SearchArguments extends RegistryArguments {
  term?: string
  limit: number
  'page-size'?: number
  cursor?: string
  'updated-since'?: string
  'include-deleted'?: boolean
  format?: 'text' | 'json'
  quiet?: boolean
}

export async function runSearch(args: SearchArguments, io: Io): Promise<number> {
  if (!Number.isInteger(args.limit) || args.limit < 1)
    throw new CliError('usage', '--limit must be a whole number above 0')
  const pageSize = args['page-size']
  if (pageSize !== undefined && (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100))
    throw new CliError('usage', '--page-size must be a whole number from 1 to 100')
  const client = await registryClient(args, io)
  const say = diagnostics(io, args)
  const found: EntrySummary[] = []
  let cursor = args.cursor
  let offline = false
  do {
    const page = await client.listServers({
      ...(args.term === undefined ? {} : { search: args.term }),
      ...(cursor === undefined ? {} : { cursor }),
      ...(pageSize === undefined ? {} : { limit: pageSize }),
      ...(args['updated-since'] === undefined ? {} : { updatedSince: args['updated-since'] }),
      ...(args['include-deleted'] ? { includeDeleted: true } : {}),
    })
    offline ||= page.offline
    found.push(...page.servers.map(summarize))
    // A registry that hands back the cursor it was given would page forever.
    cursor = page.nextCursor === cursor ? undefined : page.nextCursor
  } while (cursor !== undefined && found.length < args.limit)
  const shown = found.slice(0, args.limit)
  if (offline) say.warn(`the registry at ${client.url} cannot be reached: these are cached answers`)
  for (const entry of shown) {
    if (entry.status === 'deprecated')
      say.warn(
        `${sanitizeLine(entry.name)} is deprecated${entry.statusMessage ? `: ${sanitizeLine(entry.statusMessage)}` : ''}`,
      )
  }
  const format = args.format ?? (io.stdoutIsTTY ? 'text' : 'json')
  if (format === 'json') await writeRecords(io, shown as never)
  else if (shown.length === 0) await write(io.stdout, 'no servers found\n')
  else
    await write(
      io.stdout,
      `${table([['NAME', 'VERSION', 'STATUS', 'RUNS', 'DESCRIPTION'], ...shown.map(searchRow)])}\n`,
    )
  if (cursor !== undefined || found.length > args.limit) {
    const more =
      cursor === undefined || found.length > args.limit ? '' : ` (or go on with --cursor ${cursor})`
    say.warn(`more servers than --limit ${args.limit}: raise it${more}`)
  }
  return 0
}
