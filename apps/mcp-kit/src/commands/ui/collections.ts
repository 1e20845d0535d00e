// The workspace's collections (issue 33): the collection files in the `--collections` directory
// listed with their steps, the page's current call saved as a step (with @mcp-kit/collections'
// own editor and writer, so `mcp-kit test` reads exactly what was written), and a file run as
// `mcp-kit test` runs it, each step's outcome returned.

import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile } from 'node:fs/promises'
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import type { Collection, Expectations, ServerEntry as FileServer, StepEntry } from '@mcp-kit/collections'
import { CliError } from '../../base/errors.js'
import type { Io } from '../../base/io.js'
import { spoolVariable } from '../../record/record-flag.js'
import { recordedServer, serverName } from '../../record/server-entry.js'
import { withRelativeDirectory } from '../../record/write-recording.js'
import type { ConnectionArguments } from '../../session/connection-flags.js'
import { appVariables } from '../../session/reference.js'
import { cliConnect, cliInputFor, cliResolver } from '../shared/cli-hooks.js'
import { toolArguments } from './operations.js'
import type { ServerEntry } from './server-entry.js'
import { uiIo } from './ui-io.js'

export interface CollectionsPlace {
  /** The directory whose collection files the page lists and writes (`--collections`). */
  directory: string
  io: Pick<Io, 'env' | 'cwd' | 'signal'>
  args: ConnectionArguments
}

const extensions = ['.yaml', '.yml', '.json']
const largestListing = 200

/** A file the page names: relative, inside the directory, a collection's extension. */
export function collectionPath(place: CollectionsPlace, given: unknown): { file: string; path: string } {
  if (typeof given !== 'string' || given.trim() === '')
    throw new CliError('usage', "'file' must name a collection file, e.g. calls.yaml")
  const file = given.trim().split('\\').join('/')
  const path = resolve(place.directory, file)
  const inside = relative(place.directory, path)
  if (isAbsolute(file) || inside === '' || inside.startsWith('..') || isAbsolute(inside))
    throw new CliError('usage', `${file}: a collection file must be inside ${place.directory}`)
  if (!extensions.some((extension) => file.toLowerCase().endsWith(extension)))
    throw new CliError('usage', `${file}: a collection file ends in .yaml, .yml or .json`)
  return { file: inside.split(sep).join('/'), path }
}

/** A step's place (0-based) as the page sends it. */
function stepIndex(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw new CliError('usage', "'index' must be a step's place in the collection (0 for the first)")
  return value
}

async function filesUnder(directory: string, depth: number): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true }).catch(() => [])
  const found: string[] = []
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue
    const path = join(directory, entry.name)
    if (entry.isDirectory() && depth > 0) found.push(...(await filesUnder(path, depth - 1)))
    else if (entry.isFile() && extensions.some((extension) => entry.name.toLowerCase().endsWith(extension)))
      found.push(path)
    if (found.length >= largestListing) break
  }
  return found
}

function stepView(collection: Collection) {
  return collection.steps.map((step) => ({
    index: step.index,
    name: step.name,
    server: step.server,
    line: step.line,
    operation: step.operation,
    expect: step.entry.expect,
  }))
}

/**
 * The files that may be collections: a file that does not spell `steps` has none, and is left out
 * without loading the collections package or parsing it (a project's package.json, tsconfig.json…).
 */
async function candidates(paths: string[]): Promise<string[]> {
  const kept = await Promise.all(
    paths.map(async (path) =>
      (await readFile(path, 'utf8').catch(() => '')).includes('steps') ? path : undefined,
    ),
  )
  return kept.filter((path) => path !== undefined)
}

/**
 * The collection files of the directory (two levels down) with their steps. A YAML or JSON file
 * that is not a collection (no `steps`) is left out; a collection with problems is listed with them.
 */
export async function listCollections(place: CollectionsPlace) {
  const files = await candidates((await filesUnder(place.directory, 2)).sort())
  if (files.length === 0) return { directory: place.directory, collections: [] }
  const { loadCollection, formatProblem } = await import('@mcp-kit/collections')
  const listed = await Promise.all(
    files.map(async (path) => {
      const file = relative(place.directory, path).split(sep).join('/')
      try {
        const collection = await loadCollection(file, { cwd: place.directory })
        return { file, name: collection.name, steps: stepView(collection) }
      } catch (error) {
        const problems = (error as { problems?: Parameters<typeof formatProblem>[0][] }).problems ?? []
        const looksLikeOne = problems.length > 0 && !problems.some((each) => /steps/.test(each.message))
        if (!looksLikeOne) return undefined
        return { file, name: file, steps: [], problems: problems.map(formatProblem) }
      }
    }),
  )
  return { directory: place.directory, collections: listed.filter((each) => each !== undefined) }
}

/** What the page asks a saved step to check. */
export function expectationsOf(check: Record<string, unknown>): Expectations | undefined {
  switch (check.kind ?? 'success') {
    case 'success':
      return undefined
    case 'error':
      return { error: true }
    case 'contains': {
      const path = typeof check.path === 'string' && check.path.trim() !== '' ? check.path.trim() : undefined
      if (typeof check.text !== 'string' || check.text === '')
        throw new CliError('usage', "'contains' needs the text the result must contain")
      return { json: [{ path: path ?? '$.content[0].text', contains: check.text }] }
    }
    default:
      throw new CliError('usage', `unknown check '${String(check.kind)}': success, error or contains`)
  }
}

/** The collection's name for the server: the one it already has for the same entry, else a free one. */
function nameFor(collection: Collection | undefined, wanted: string, entry: FileServer): string {
  const servers = collection?.document.servers ?? {}
  const same = Object.entries(servers).find(([, known]) => JSON.stringify(known) === JSON.stringify(entry))
  if (same !== undefined) return same[0]
  let name = wanted
  for (let suffix = 2; Object.hasOwn(servers, name); suffix++) name = `${wanted}-${suffix}`
  return name
}

/** Saves a call of the page (server, tool, the form's values) as a step at the end of a collection file. */
export async function saveCall(place: CollectionsPlace, entry: ServerEntry, body: Record<string, unknown>) {
  const collections = await import('@mcp-kit/collections')
  const { file, path } = collectionPath(place, body.file)
  const tool = typeof body.tool === 'string' ? body.tool : ''
  if (tool === '') throw new CliError('usage', "'tool' must name the tool to call")
  const session = entry.requireSession()
  const json = (typeof body.json === 'object' && body.json !== null ? body.json : {}) as Record<
    string,
    unknown
  >
  // The arguments as the call sends them: coerced and checked by the tool's schema.
  const prepared = await toolArguments(entry, tool, { json }, place.args)
  const server = await recordedServer(entry.resolved as never, session.serverInfo.name, {}, place.io.cwd)
  const serverEntry = withRelativeDirectory(server.entry, dirname(path))
  const existing = existsSync(path)
    ? await collections.loadCollection(file, { cwd: place.directory })
    : undefined
  const name = nameFor(existing, server.name || serverName(entry.name), serverEntry)
  const expect = expectationsOf(
    typeof body.check === 'object' && body.check !== null ? (body.check as Record<string, unknown>) : {},
  )
  const stepName = typeof body.name === 'string' && body.name.trim() !== '' ? body.name.trim() : undefined
  const step: StepEntry = {
    ...(stepName === undefined ? {} : { name: stepName }),
    call: tool,
    arguments: prepared.arguments,
    ...(expect === undefined ? {} : { expect }),
  }
  let collection: Collection
  if (existing === undefined) {
    collection = collections.createCollection(
      { servers: { [name]: serverEntry }, steps: [step] },
      { file, directory: dirname(path) },
    )
  } else {
    collection = Object.hasOwn(existing.document.servers, name)
      ? existing
      : collections.setServer(existing, name, serverEntry)
    const several = Object.keys(collection.document.servers).length > 1
    collection = collections.addStep(collection, several ? { server: name, ...step } : step)
  }
  await mkdir(dirname(path), { recursive: true })
  await collections.saveCollection(collection, path)
  return { file, name: collection.name, steps: stepView(collection), server: name }
}

/** Removes a step of a collection file. */
export async function removeSavedStep(place: CollectionsPlace, body: Record<string, unknown>) {
  const collections = await import('@mcp-kit/collections')
  const { file, path } = collectionPath(place, body.file)
  const collection = collections.removeStep(
    await collections.loadCollection(file, { cwd: place.directory }),
    stepIndex(body.index),
  )
  await collections.saveCollection(collection, path)
  return { file, name: collection.name, steps: stepView(collection) }
}

/** Changes what a saved step checks: success, an error or a text, its other expectations kept. */
export async function changeCheck(place: CollectionsPlace, body: Record<string, unknown>) {
  const collections = await import('@mcp-kit/collections')
  const { file, path } = collectionPath(place, body.file)
  const expect = expectationsOf(
    typeof body.check === 'object' && body.check !== null ? (body.check as Record<string, unknown>) : {},
  )
  const collection = collections.setExpectations(
    await collections.loadCollection(file, { cwd: place.directory }),
    stepIndex(body.index),
    { error: expect?.error, json: expect?.json },
  )
  await collections.saveCollection(collection, path)
  return { file, name: collection.name, steps: stepView(collection) }
}

/** Runs a collection file as `mcp-kit test` would (its own connections, the CLI's hooks), every step's outcome. */
export async function runSaved(place: CollectionsPlace, body: Record<string, unknown>) {
  const collections = await import('@mcp-kit/collections')
  const { file } = collectionPath(place, body.file)
  const diagnostics: string[] = []
  // A run is not part of a `--record` of the workspace's own calls.
  const { [spoolVariable]: _spool, ...env } = place.io.env
  const args = { ...place.args, record: undefined } as ConnectionArguments
  const io = uiIo(
    { ...place.io, env, cwd: place.directory },
    (line) => diagnostics.push(line),
    (line) => diagnostics.push(line),
  )
  const collection = await collections.loadCollection(file, { cwd: place.directory })
  const result = await collections.runCollection(collection, {
    env: { ...appVariables(), ...env },
    resolveReference: cliResolver(args, io),
    connect: cliConnect(args, io),
    inputFor: await cliInputFor(args, io),
    signal: place.io.signal,
  })
  const steps = result.steps.map((step) => ({
    index: step.index,
    name: step.name,
    server: step.server,
    line: step.line,
    status: step.status,
    durationMs: Math.round(step.durationMs),
    skipped: step.skipped,
    failures: step.failures.map((failure) => ({
      assertion: failure.assertion,
      message: failure.message,
      path: failure.path,
    })),
  }))
  const passed = steps.every((step) => step.status === 'passed' || step.status === 'skipped')
  return {
    file,
    name: result.name,
    passed: passed && result.unreachable.length === 0,
    durationMs: Math.round(result.durationMs),
    steps,
    unreachable: result.unreachable,
    diagnostics: diagnostics.slice(-20),
  }
}
