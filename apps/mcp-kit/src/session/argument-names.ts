// What can follow a tool name on a command line, from the tool's input schema: `name=` for each
// parameter not given yet, and `name=value` for the values a parameter allows (enum, const,
// titled enums with their titles as descriptions, boolean). Shared by shell completion (schemas a
// profile saved) and `mcp-kit shell` (the live server's schemas). Server-provided names only
// become candidates when they are one safe word.

import { isRecord } from '@mcp-kit/core'
import { clip, sanitizeLine } from '../output/sanitize.js'
import { itemChoicesOf } from './schema-choices.js'

export interface Candidate {
  word: string
  description?: string
}

type Schema = Record<string, unknown>

/** A word a shell can take as it is: no blanks, no control or bidi characters. */
export function isSafeWord(word: string): boolean {
  return word !== '' && !/\s/.test(word) && sanitizeLine(word) === word
}

/** One line for a completion menu. */
export function shortDescription(text: unknown, limit = 70): string | undefined {
  return typeof text === 'string' && text.trim() !== '' ? clip(text, limit) : undefined
}

function typeName(property: Schema): string {
  if (typeof property.type === 'string') return property.type
  if (Array.isArray(property.type)) return property.type.filter((item) => typeof item === 'string').join('|')
  return 'value'
}

/**
 * Candidates for the word being typed after a tool: `partial` is that word (`lim`, `limit=`),
 * `given` the parameter names already on the line.
 */
export function argumentCandidates(
  inputSchema: unknown,
  partial: string,
  given: ReadonlySet<string>,
): Candidate[] {
  const properties = isRecord(inputSchema) && isRecord(inputSchema.properties) ? inputSchema.properties : {}
  const required = new Set(
    isRecord(inputSchema) && Array.isArray(inputSchema.required) ? (inputSchema.required as unknown[]) : [],
  )
  const equals = partial.indexOf('=')
  if (equals !== -1) {
    const name = partial.slice(0, equals)
    const property = Object.hasOwn(properties, name) ? properties[name] : undefined
    if (!isRecord(property)) return []
    return itemChoicesOf(property)
      .map((choice) => ({
        word: `${name}=${String(choice.value)}`,
        description: shortDescription(choice.title, 60),
      }))
      .filter((candidate) => isSafeWord(candidate.word))
  }
  const candidates: Candidate[] = []
  for (const [name, property] of Object.entries(properties)) {
    if (given.has(name) || !isSafeWord(name) || name.includes('=')) continue
    const schema = isRecord(property) ? property : {}
    const about = `${typeName(schema)}${required.has(name) ? ', required' : ''}`
    const text = shortDescription(schema.description, 60)
    candidates.push({ word: `${name}=`, description: text ? `${about} — ${text}` : about })
  }
  return candidates
}

/** Parameter names in `key=value` words (and a query's `key=value` segments). */
export function givenNames(words: readonly string[]): Set<string> {
  const names = new Set<string>()
  for (const word of words) {
    const equals = word.indexOf('=')
    if (equals > 0) names.add(word.slice(0, equals))
  }
  return names
}
