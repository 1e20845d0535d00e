// The values a schema property allows, with their titles where the schema gives them: `enum`
// (and the older `enumNames`), `const`, titled enums (`oneOf`/`anyOf` of `{const, title}`) and
// booleans. Forms show them, completion offers them, and a title typed for a value is that value.

import { isRecord } from '@mcp-kit/core'
import { clip, sanitizeLine } from '../output/sanitize.js'

export interface Choice {
  value: string | number | boolean
  title?: string
}

type Schema = Record<string, unknown>

function isScalar(value: unknown): value is Choice['value'] {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
}

function types(property: Schema): unknown[] {
  return Array.isArray(property.type) ? property.type : [property.type]
}

/** The choices of a property, in schema order; [] when any value of its type goes. */
export function choicesOf(property: unknown): Choice[] {
  if (!isRecord(property)) return []
  if (Array.isArray(property.enum)) {
    const titles = Array.isArray(property.enumNames) ? property.enumNames : []
    return property.enum.flatMap((value, index) => {
      if (!isScalar(value)) return []
      const title = titles[index]
      return [typeof title === 'string' && title !== '' ? { value, title } : { value }]
    })
  }
  if (isScalar(property.const)) return [{ value: property.const }]
  const union = Array.isArray(property.oneOf) ? property.oneOf : property.anyOf
  if (
    Array.isArray(union) &&
    union.length > 0 &&
    union.every((branch) => isRecord(branch) && isScalar(branch.const))
  ) {
    return (union as Schema[]).map((branch) => {
      const title = branch.title
      return typeof title === 'string' && title !== ''
        ? { value: branch.const as Choice['value'], title }
        : { value: branch.const as Choice['value'] }
    })
  }
  if (types(property).includes('boolean')) return [{ value: true }, { value: false }]
  return []
}

/** The choices of a property, or of its items for a list of them (a multi-select form field). */
export function itemChoicesOf(property: unknown): Choice[] {
  const own = choicesOf(property)
  if (own.length > 0 || !isRecord(property) || !types(property).includes('array')) return own
  return choicesOf(property.items)
}

/** `s (Small)`, or the value alone when it has no title (or the title says the same). */
export function describeChoice(choice: Choice): string {
  const value = sanitizeLine(String(choice.value))
  if (choice.title === undefined || choice.title === String(choice.value)) return value
  return `${value} (${clip(choice.title, 40)})`
}

/** `red, green` or `s (Small), l (Large)`, at most `limit` of them. */
export function describeChoices(choices: readonly Choice[], limit = 12): string {
  const shown = choices.slice(0, limit).map(describeChoice).join(', ')
  return choices.length > limit ? `${shown}, … (${choices.length - limit} more)` : shown
}

/**
 * The value a typed answer stands for: a value as text, else a title (any case) that only one
 * choice has; undefined when it is neither.
 */
export function choiceFor(choices: readonly Choice[], typed: string): Choice | undefined {
  const exact = choices.find((choice) => String(choice.value) === typed)
  if (exact !== undefined) return exact
  const titled = choices.filter((choice) => choice.title?.toLowerCase() === typed.toLowerCase())
  return titled.length === 1 ? titled[0] : undefined
}
