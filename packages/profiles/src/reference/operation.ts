// Turns the reserved keys of a query into the one operation a reference asks for.

import { ProfileError } from '../errors.js'
import type { Operation, ReferenceQuery } from '../types.js'

const listOperations = {
  tools: { kind: 'listTools' },
  resources: { kind: 'listResources' },
  templates: { kind: 'listResourceTemplates' },
  prompts: { kind: 'listPrompts' },
} as const

function refuseArguments(query: ReferenceQuery, what: string): void {
  const names = Object.keys(query.params)
  if (names.length === 0) return
  throw new ProfileError(
    'invalid_reference',
    `malformed query: argument${names.length > 1 ? 's' : ''} ${names.map((name) => `'${name}'`).join(', ')} given, but ${what}`,
    { details: { arguments: names } },
  )
}

/** What `arg:NAME=value` looks like for a value, in a message. */
function escaped(name: string, value: string): string {
  const shown = encodeURIComponent(value)
  return `arg:${name}=${shown.length <= 40 ? shown : '…'}`
}

/**
 * Two operations asked for. A tool (else a prompt) is the operation the user most likely meant,
 * the other reserved keys its arguments under names that collide: say how to write those
 * (`details.collisions`). operation-flags.ts takes them as the tool's arguments when asked to.
 */
function twoOperations(selectors: string[], query: ReferenceQuery, tool: string | undefined): ProfileError {
  const chosen = tool !== undefined ? 'tool' : query.prompt !== undefined ? 'prompt' : undefined
  const values: Record<string, string | undefined> = {
    prompt: query.prompt,
    resource: query.resource,
    list: query.list,
  }
  const collisions: Record<string, string> = {}
  for (const selector of selectors) {
    const value = values[selector]
    if (selector !== chosen && value !== undefined) collisions[selector] = value
  }
  const names = Object.keys(collisions)
  let hint = ''
  if (chosen !== undefined && names.length > 0) {
    const owner = chosen === 'tool' ? `tool '${tool}'` : `prompt '${query.prompt}'`
    const writes = names.map((name) => escaped(name, collisions[name] as string)).join(' and ')
    hint = `. If ${names.map((name) => `'${name}'`).join(' and ')} ${names.length > 1 ? 'are arguments' : 'is an argument'} of ${owner}, write ${writes} (reserved keys: tool, resource, prompt, list)`
  }
  return new ProfileError(
    'invalid_reference',
    `malformed query: choose one of ${selectors.join(', ')}; a reference does one thing${hint}`,
    { details: chosen === undefined ? { selectors } : { selectors, operation: chosen, collisions } },
  )
}

/** A query as read, and the operation it asks for. */
export interface PickedOperation {
  query: ReferenceQuery
  operation: Operation
}

/**
 * How a parser turns a parsed query into the operation (and the query as the reference keeps it).
 * `pathTool` is the tool named in a profile reference's path (`@server/tool`). The parsers take
 * one so that operation flags given apart from the text (operation-flags.ts) join the query as
 * data, never as text.
 */
export type OperationPicker = (query: ReferenceQuery, pathTool?: string) => PickedOperation

/** The reference's own query and nothing else: what parseReference uses. */
export const pickFromQuery: OperationPicker = (query, pathTool) => ({
  query,
  operation: operationFromQuery(query, pathTool),
})

/**
 * Picks the operation: a tool call, prompt, resource read, list, or (nothing asked) inspect.
 * `pathTool` is the tool named in a profile reference's path (`@server/tool`).
 */
export function operationFromQuery(query: ReferenceQuery, pathTool?: string): Operation {
  if (pathTool !== undefined && query.tool !== undefined) {
    throw new ProfileError(
      'invalid_reference',
      `malformed query: the tool is named twice ('${pathTool}' in the path and tool=${query.tool})`,
    )
  }
  const tool = pathTool ?? query.tool
  const selectors = [
    tool === undefined ? undefined : 'tool',
    query.resource === undefined ? undefined : 'resource',
    query.prompt === undefined ? undefined : 'prompt',
    query.list === undefined ? undefined : 'list',
  ].filter((selector) => selector !== undefined)
  if (selectors.length > 1) throw twoOperations(selectors, query, tool)
  if (tool !== undefined) {
    if (tool === '') throw new ProfileError('invalid_reference', 'malformed query: tool= is empty')
    return { kind: 'callTool', name: tool, args: query.params }
  }
  if (query.prompt !== undefined) {
    if (query.prompt === '') throw new ProfileError('invalid_reference', 'malformed query: prompt= is empty')
    return { kind: 'getPrompt', name: query.prompt, args: query.params }
  }
  if (query.resource !== undefined) {
    if (query.resource === '')
      throw new ProfileError('invalid_reference', 'malformed query: resource= is empty')
    refuseArguments(query, 'a resource read takes no arguments')
    return { kind: 'readResource', uri: query.resource }
  }
  if (query.list !== undefined) {
    refuseArguments(query, `list=${query.list} takes no arguments`)
    return { ...listOperations[query.list] }
  }
  refuseArguments(query, 'there is no tool= or prompt= to pass them to')
  return { kind: 'inspect' }
}
