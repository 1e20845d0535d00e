// JSONPath as RFC 9535 defines it (jsonpath-rfc9535: no code is evaluated, filters included):
// the places a path matches in a result, with their paths written for people.

import { exec } from 'jsonpath-rfc9535'
import parseJsonPath from 'jsonpath-rfc9535/parser'

export type Segments = Array<string | number>

export interface Match {
  segments: Segments
  value: unknown
}

/** Why `expression` is not a JSONPath, or undefined when it is one. */
export function jsonPathProblem(expression: string): string | undefined {
  try {
    parseJsonPath(expression)
    return undefined
  } catch (error) {
    const column = (error as { location?: { start?: { column?: number } } }).location?.start?.column
    const reason = (error as Error).message.replace(/\s+/g, ' ')
    return `${JSON.stringify(expression)} is not a JSONPath (RFC 9535)${column === undefined ? '' : ` at character ${column}`}: ${reason}`
  }
}

/** Every match of `expression` in `value`, in document order. */
export function matchesOf(value: unknown, expression: string): Match[] {
  const matches: Match[] = []
  exec(value as never, expression, (found, path) => {
    matches.push({ segments: [...path], value: found })
  })
  return matches
}

/** `$.content[0].text`, `$.tools[2]['odd name']`. */
export function formatPath(segments: Readonly<Segments>): string {
  let text = '$'
  for (const segment of segments) {
    if (typeof segment === 'number') text += `[${segment}]`
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(segment)) text += `.${segment}`
    else text += `[${JSON.stringify(segment).replace(/^"|"$/g, "'")}]`
  }
  return text
}

/** A short JSON text of a value for messages (at most `limit` characters). */
export function preview(value: unknown, limit = 80): string {
  if (value === undefined) return 'nothing'
  let text: string
  try {
    text = JSON.stringify(value) ?? String(value)
  } catch {
    text = String(value)
  }
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text
}
