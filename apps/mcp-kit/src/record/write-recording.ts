// Recorded calls into a collection file: a new one, or steps added at the end of the one there
// (`--record` run again and again builds one collection). A command's directory is written
// relative to the file; a `${NAME}` written for a secret value is named, to be set when it runs.

import { existsSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import type { RecordedCall, ServerEntry } from '@mcp-kit/collections'
import type { Io } from '../base/io.js'

/** A stdio server's directory written relative to the collection's (`cwd` absolute as recorded). */
export function withRelativeDirectory(entry: ServerEntry, directory: string): ServerEntry {
  if (typeof entry !== 'object' || entry.cwd === undefined) return entry
  const path = relative(directory, entry.cwd).split('\\').join('/')
  const { cwd: _absolute, ...rest } = entry
  return path === '' ? rest : { ...rest, cwd: path.replaceAll('${', () => '$${') }
}

function placeholdersOf(entry: ServerEntry): string[] {
  const names = new Set<string>()
  for (const match of JSON.stringify(entry)
    .replaceAll('$${', '')
    .matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g))
    names.add(match[1] as string)
  return [...names]
}

export interface WrittenRecording {
  file: string
  steps: number
  /** One line for stderr: what was written where, and what to set to run it. */
  summary: string
}

export async function writeRecording(
  path: string,
  calls: readonly RecordedCall[],
  io: Io,
  options: { append?: boolean } = {},
): Promise<WrittenRecording> {
  const collections = await import('@mcp-kit/collections')
  const file = resolve(io.cwd, path)
  const directory = dirname(file)
  const placed = calls.map((call) => ({
    ...call,
    server: { ...call.server, entry: withRelativeDirectory(call.server.entry, directory) },
  }))
  const append = options.append !== false && existsSync(file)
  const collection = append
    ? await collections.appendCalls(await collections.loadCollection(path, { cwd: io.cwd }), placed)
    : await collections.collectionFromCalls(placed, { file: path, directory })
  await collections.saveCollection(collection, file)
  const steps = placed.length
  const secrets = [...new Set(placed.flatMap((call) => placeholdersOf(call.server.entry)))]
  const masks =
    (collection.document.masks?.length ?? 0) +
    collection.steps.reduce((sum, step) => sum + (step.entry.expect?.masks?.length ?? 0), 0)
  const summary = [
    `recorded ${steps} call${steps === 1 ? '' : 's'} ${append ? 'at the end of' : 'to'} ${path}`,
    masks > 0 ? `; ${masks} mask${masks === 1 ? '' : 's'} of volatile values (listed under 'masks')` : '',
    secrets.length > 0
      ? `; secret values are written as ${secrets.map((name) => `\${${name}}`).join(', ')}: set ${secrets.length === 1 ? 'it' : 'them'} (or --env) to run it`
      : '',
  ].join('')
  return { file, steps, summary }
}
