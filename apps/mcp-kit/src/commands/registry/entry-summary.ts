// One registry entry as `registry search` and `registry show` print it: a record for scripts
// (NDJSON) and a line for people. What the registry sends is data: every string shown on a
// terminal passes the sanitizer, and long ones are clipped.

import type { RegistryEntry } from '@mcp-kit/registry'
import { clip, sanitizeLine } from '../../output/sanitize.js'

export interface EntrySummary {
  name: string
  version: string
  title?: string
  description?: string
  status: string
  statusMessage?: string
  updatedAt?: string
  isLatest?: boolean
  /** `npm @scope/pkg`, `pypi name`… */
  packages: string[]
  /** Remote transport types. */
  remotes: string[]
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

export function summarize(entry: RegistryEntry): EntrySummary {
  const server = entry.server
  const summary: EntrySummary = {
    name: String(server.name),
    version: String(server.version ?? ''),
    status: text(entry.official.status) ?? 'active',
    packages: (Array.isArray(server.packages) ? server.packages : []).map(
      (pkg) => `${String(pkg?.registryType ?? '?')} ${String(pkg?.identifier ?? '?')}`,
    ),
    remotes: (Array.isArray(server.remotes) ? server.remotes : []).map((remote) =>
      String(remote?.type ?? '?'),
    ),
  }
  const fields = {
    title: text(server.title),
    description: text(server.description),
    statusMessage: text(entry.official.statusMessage),
    updatedAt: text(entry.official.updatedAt),
  }
  for (const [key, value] of Object.entries(fields))
    if (value !== undefined) Object.assign(summary, { [key]: value })
  if (typeof entry.official.isLatest === 'boolean') summary.isLatest = entry.official.isLatest
  return summary
}

/** Rows of a table, columns padded to their widest cell (the last column is not). */
export function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? []
  return rows
    .map((row) =>
      row
        .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
}

/** The cells of one entry in the search table. */
export function searchRow(summary: EntrySummary): string[] {
  const status = summary.status === 'active' ? '' : summary.status
  const kinds = [...new Set([...summary.packages.map((pkg) => pkg.split(' ')[0] ?? ''), ...summary.remotes])]
  return [
    sanitizeLine(summary.name),
    clip(sanitizeLine(summary.version), 20),
    status,
    kinds.map(sanitizeLine).join(','),
    clip(sanitizeLine(summary.description ?? ''), 70),
  ]
}
