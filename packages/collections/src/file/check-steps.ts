// What the schema cannot say about a collection: each server launched or reached one way, each
// step on a server that exists, its fields fitting what it does, its JSONPaths and regular
// expressions valid, and every `${NAME}` it uses that a step captures captured by an earlier step
// (on its own server when servers run in parallel). Works out each step's name and operation.

import { jsonPathProblem } from '../assert/json-path.js'
import { regexOf } from '../assert/json-values.js'
import type {
  CollectionDocument,
  Mask,
  Operation,
  ServerEntry,
  Step,
  StepEntry,
} from '../collection-types.js'
import { placeholdersIn } from '../placeholders.js'
import type { PathSegment } from './parse-document.js'

export interface StepProblem {
  path: PathSegment[]
  key?: string
  step?: number
  message: string
}

const serverWays = ['reference', 'profile', 'command', 'url'] as const

function checkServer(name: string, entry: ServerEntry, problems: StepProblem[]): void {
  if (typeof entry === 'string') return
  const path = ['servers', name]
  const ways = serverWays.filter((way) => entry[way] !== undefined)
  if (ways.length !== 1) {
    problems.push({
      path,
      message:
        ways.length === 0
          ? `server '${name}' needs one of reference, profile, command or url`
          : `server '${name}' gives ${ways.join(' and ')}: give one of them`,
    })
    return
  }
  const way = ways[0]
  const stdioOnly = ['args', 'env', 'cwd'] as const
  for (const field of stdioOnly)
    if (entry[field] !== undefined && way !== 'command')
      problems.push({ path, key: field, message: `'${field}' is for a server launched by 'command'` })
  if (entry.headers !== undefined && way !== 'url')
    problems.push({ path, key: 'headers', message: `'headers' is for a server reached by 'url'` })
  if (Array.isArray(entry.command) && entry.args !== undefined)
    problems.push({
      path,
      key: 'args',
      message: `'command' is already a list of words: put the arguments in it`,
    })
}

function operationOf(entry: StepEntry): Operation | undefined {
  if (entry.call !== undefined) return { kind: 'call', name: entry.call }
  if (entry.read !== undefined) return { kind: 'read', uri: entry.read }
  if (entry.prompt !== undefined) return { kind: 'prompt', name: entry.prompt }
  if (entry.list !== undefined) return { kind: 'list', list: entry.list }
  return undefined
}

function defaultName(operation: Operation): string {
  switch (operation.kind) {
    case 'call':
      return `call ${operation.name}`
    case 'read':
      return `read ${operation.uri}`
    case 'prompt':
      return `prompt ${operation.name}`
    case 'list':
      return `list ${operation.list}`
  }
}

function checkMasks(
  masks: readonly Mask[] | undefined,
  path: PathSegment[],
  problems: StepProblem[],
  step?: number,
): void {
  for (const [index, mask] of (masks ?? []).entries()) {
    if ('path' in mask) {
      const problem = jsonPathProblem(mask.path)
      if (problem) problems.push({ path: [...path, index, 'path'], step, message: `mask: ${problem}` })
    } else {
      try {
        regexOf(mask.pattern)
      } catch (error) {
        problems.push({
          path: [...path, index, 'pattern'],
          step,
          message: `mask: ${(error as Error).message}`,
        })
      }
    }
  }
}

/** The fields of a step's request: what `${NAME}` is filled in. */
export function requestFields(entry: StepEntry): unknown[] {
  return [
    entry.call,
    entry.read,
    entry.prompt,
    entry.arguments,
    entry.answers,
    ...(entry.expect?.json ?? []).map((item) => [item.equals, item.contains, item.matches]),
  ]
}

function checkStep(
  entry: StepEntry,
  index: number,
  document: CollectionDocument,
  problems: StepProblem[],
): Omit<Step, 'uses' | 'line'> | undefined {
  const path: PathSegment[] = ['steps', index]
  const operation = operationOf(entry)
  if (operation === undefined) return undefined
  const servers = Object.keys(document.servers)
  let server = entry.server
  if (server === undefined) {
    if (servers.length === 1) server = servers[0] as string
    else
      problems.push({
        path,
        step: index,
        message: `say which server: one of ${servers.join(', ')} ('server: NAME')`,
      })
  } else if (!servers.includes(server)) {
    problems.push({
      path: [...path, 'server'],
      step: index,
      message: `no server '${server}' in servers (${servers.join(', ')})`,
    })
  }
  const refuse = (key: string, message: string) => problems.push({ path, key, step: index, message })
  if (entry.arguments !== undefined && operation.kind !== 'call' && operation.kind !== 'prompt')
    refuse('arguments', `'arguments' go with call or prompt, not ${operation.kind}`)
  if (entry.task !== undefined && operation.kind !== 'call') refuse('task', `'task' goes with call`)
  const expect = entry.expect
  const expectPath = [...path, 'expect']
  const refuseExpect = (key: string, message: string) =>
    problems.push({ path: expectPath, key, step: index, message })
  if (expect?.outputSchema !== undefined && operation.kind !== 'call')
    refuseExpect('outputSchema', `'outputSchema' goes with call`)
  if (expect?.task !== undefined && operation.kind !== 'call') refuseExpect('task', `'task' goes with call`)
  for (const key of ['schemaHash', 'drift'] as const)
    if (expect?.[key] !== undefined && !(operation.kind === 'list' && operation.list === 'tools'))
      refuseExpect(key, `'${key}' goes with 'list: tools'`)
  for (const [name, expression] of Object.entries(entry.capture ?? {})) {
    const problem = jsonPathProblem(expression)
    if (problem)
      problems.push({
        path: [...path, 'capture', name],
        step: index,
        message: `capture '${name}': ${problem}`,
      })
  }
  for (const [position, assertion] of (expect?.json ?? []).entries()) {
    const at = [...expectPath, 'json', position]
    const problem = jsonPathProblem(assertion.path)
    if (problem) problems.push({ path: [...at, 'path'], step: index, message: problem })
    if (assertion.matches !== undefined) {
      try {
        regexOf(assertion.matches)
      } catch (error) {
        problems.push({ path: [...at, 'matches'], step: index, message: (error as Error).message })
      }
    }
  }
  checkMasks(expect?.masks, [...expectPath, 'masks'], problems, index)
  return {
    index,
    name: entry.name ?? defaultName(operation),
    server: server ?? servers[0] ?? '',
    operation,
    entry,
  }
}

/** The checked steps, or the problems that keep the collection from running. */
export function checkSteps(
  document: CollectionDocument,
  lineOf: (index: number) => number,
): { steps: Step[]; problems: StepProblem[] } {
  const problems: StepProblem[] = []
  for (const [name, entry] of Object.entries(document.servers)) checkServer(name, entry, problems)
  checkMasks(document.masks, ['masks'], problems)
  const steps: Step[] = []
  /** The step (and its server) that captures each name, as far as the file has gone. */
  const capturedBy = new Map<string, { index: number; server: string }>()
  /** The names each server's steps have captured so far (what a parallel lane has). */
  const capturedOn = new Map<string, Set<string>>()
  const capturedLater = new Map<string, number>()
  for (const [index, entry] of document.steps.entries())
    for (const name of Object.keys(entry.capture ?? {}))
      if (!capturedLater.has(name)) capturedLater.set(name, index)
  for (const [index, entry] of document.steps.entries()) {
    const checked = checkStep(entry, index, document, problems)
    if (checked === undefined) continue
    const uses: string[] = []
    for (const use of placeholdersIn(requestFields(entry))) {
      if (use.secret || uses.includes(use.name)) continue
      const source = capturedBy.get(use.name)
      if (source !== undefined) {
        if (document.parallel === true && !capturedOn.get(checked.server)?.has(use.name))
          problems.push({
            path: ['steps', index],
            step: index,
            message: `uses \${${use.name}}, captured by step ${source.index + 1} on server '${source.server}': with 'parallel: true' a step uses only values captured on its own server`,
          })
        uses.push(use.name)
      } else if ((capturedLater.get(use.name) ?? -1) >= index && !use.hasDefault) {
        problems.push({
          path: ['steps', index],
          step: index,
          message: `uses \${${use.name}} before step ${(capturedLater.get(use.name) as number) + 1} captures it`,
        })
      }
    }
    steps.push({ ...checked, uses, line: lineOf(index) })
    for (const name of Object.keys(entry.capture ?? {}))
      capturedBy.set(name, { index, server: checked.server })
  }
  return { steps, problems }
}
