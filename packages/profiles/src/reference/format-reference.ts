// Prints parsed references back as reference strings (parseReference(formatReference(x)) gives x
// back), and launch specs as command lines for people to read — never for a shell to run.

import type {
  NakedReference,
  Operation,
  ProfileReference,
  ReferenceQuery,
  RegistryReference,
  ServerSpec,
} from '../types.js'
import { needsArgumentEscape } from './query.js'

function encodeCharacters(text: string, pattern: RegExp): string {
  return text.replace(pattern, (character) => encodeURIComponent(character))
}

const queryUnsafe = /[%&=?#+\s\u0000-\u001f\u007f]/gu
const targetUnsafe = /[%?#\s\u0000-\u001f\u007f]/gu
const pathSegmentUnsafe = /[%?#/\\\s\u0000-\u001f\u007f]/gu

function pair(key: string, value: string): string {
  return `${encodeCharacters(key, queryUnsafe)}=${encodeCharacters(value, queryUnsafe)}`
}

function operationPairs(operation: Operation, pathTool: boolean): string[] {
  switch (operation.kind) {
    case 'callTool':
      return pathTool ? [] : [pair('tool', operation.name)]
    case 'getPrompt':
      return [pair('prompt', operation.name)]
    case 'readResource':
      return [pair('resource', operation.uri)]
    case 'listTools':
      return ['list=tools']
    case 'listResources':
      return ['list=resources']
    case 'listResourceTemplates':
      return ['list=templates']
    case 'listPrompts':
      return ['list=prompts']
    case 'inspect':
      return []
  }
}

function queryString(
  reference: NakedReference | ProfileReference | RegistryReference,
  pathTool: boolean,
): string {
  const query: ReferenceQuery = reference.query
  const pairs = operationPairs(reference.operation, pathTool)
  if (query.command !== undefined) pairs.push(pair('command', query.command))
  for (const value of query.launchArgs) pairs.push(pair('arg', value))
  for (const [name, value] of Object.entries(query.env)) pairs.push(pair(`env.${name}`, value))
  for (const [name, value] of Object.entries(query.params)) {
    const key = needsArgumentEscape(name) ? `arg:${name}` : name
    for (const item of Array.isArray(value) ? value : [value]) pairs.push(pair(key, item))
  }
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`
}

/**
 * Prints a parsed reference as a reference string that parses back to the same data. (A command
 * line given after `--` has no reference string; describeServer prints its server.)
 */
export function formatReference(reference: NakedReference | ProfileReference | RegistryReference): string {
  if (reference.type === 'registry') {
    const version = reference.version === undefined ? '' : `@${reference.version}`
    return `mcp+registry://${reference.name}${version}${queryString(reference, false)}`
  }
  if (reference.type === 'profile') {
    const tool = reference.tool === undefined ? '' : `/${encodeCharacters(reference.tool, pathSegmentUnsafe)}`
    return `@${encodeCharacters(reference.profile, pathSegmentUnsafe)}${tool}${queryString(reference, reference.tool !== undefined)}`
  }
  const target =
    reference.launcher === 'http' || reference.launcher === 'https'
      ? reference.target
      : encodeCharacters(reference.target, targetUnsafe)
  return `mcp+${reference.launcher}://${target}${queryString(reference, false)}`
}

function quoteForDisplay(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word
  return `'${word.replace(/'/g, `'\\''`)}'`
}

/** A one-line, shell-quoted description of how a server is reached (for messages and `inspect`). */
export function describeServer(server: ServerSpec): string {
  if (server.transport === 'http') return server.url
  return [server.command, ...server.args].map(quoteForDisplay).join(' ')
}
