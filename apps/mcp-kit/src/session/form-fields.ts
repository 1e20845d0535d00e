// The fields of a server's form (an elicitation's requested schema) as people see them: a
// question per field on the terminal, with its choices (titled enums as `value (Title)`), offered
// to Tab and checked as they are typed; and the list of fields an `input_required` message gives
// when there is no terminal to ask on.

import type { Io } from '../base/io.js'
import { clip, sanitizeLine } from '../output/sanitize.js'
import {
  type Choice,
  choiceFor,
  choicesOf,
  describeChoice,
  describeChoices,
  itemChoicesOf,
} from './schema-choices.js'

type Schema = Record<string, unknown>

/** Asks one question; `choices` are what Tab offers for the answer. */
export type Ask = (question: string, options?: { choices?: readonly string[] }) => Promise<string>

function typeOf(property: Schema): string {
  if (typeof property.type === 'string') return property.type
  if (Array.isArray(property.type)) return property.type.filter((type) => typeof type === 'string').join('|')
  return 'value'
}

/** A field as a question: `  size (string, required) [s (Small)/l (Large)] — The size`. */
function question(name: string, property: Schema, required: boolean): string {
  const choices = itemChoicesOf(property)
  const shown = choices.length > 0 ? ` [${choices.slice(0, 12).map(describeChoice).join('/')}]` : ''
  const text = typeof property.description === 'string' ? ` — ${sanitizeLine(property.description)}` : ''
  return `  ${sanitizeLine(name)} (${typeOf(property)}${required ? ', required' : ''})${shown}${text}`
}

/** One line of an `input_required` message: the field, its type, whether it is needed, its choices. */
export function describeFormField(name: string, property: Schema, required: boolean, value: unknown): string {
  const own = choicesOf(property)
  const items = own.length > 0 ? [] : itemChoicesOf(property)
  const yesNo = own.length === 2 && own.every((choice) => typeof choice.value === 'boolean')
  const choices = yesNo
    ? ': true or false'
    : own.length > 0
      ? `: one of ${describeChoices(own)}`
      : items.length > 0
        ? `: any of ${describeChoices(items)}`
        : ''
  const now = value === undefined ? '' : ` (given: ${clip(JSON.stringify(value) ?? String(value), 40)})`
  const text = typeof property.description === 'string' ? ` — ${clip(property.description, 60)}` : ''
  return `  ${sanitizeLine(name)} (${typeOf(property)}, ${required ? 'required' : 'optional'})${choices}${now}${text}`
}

/** Choices a typed answer must be one of: explicit lists (enum, const, titled), not booleans. */
function strictChoices(property: Schema): Choice[] {
  const choices = choicesOf(property)
  return choices.some((choice) => typeof choice.value !== 'boolean') ? choices : []
}

/** The value a title stands for (`--input size=Large`), when the field has titled choices. */
export function valueForTitle(property: Schema, typed: string): Choice['value'] | undefined {
  return choiceFor(strictChoices(property), typed)?.value
}

/**
 * Reads one field's answer: undefined when the user kept the current value, a choice's value
 * when the field has choices (a title typed stands for its value; anything else is asked again),
 * else the text as typed.
 */
export async function askField(
  ask: Ask,
  name: string,
  property: Schema,
  current: unknown,
  required: boolean,
  io: Io,
): Promise<unknown> {
  const strict = strictChoices(property)
  const offered = itemChoicesOf(property).map((choice) => String(choice.value))
  for (;;) {
    const shown = current === undefined ? '' : ` [${sanitizeLine(JSON.stringify(current))}]`
    const answer = (await ask(`${question(name, property, required)}${shown}: `, { choices: offered })).trim()
    if (answer === '') {
      if (current !== undefined || !required) return current
      io.stderr.write('    (required)\n')
      continue
    }
    if (strict.length === 0) return answer
    const choice = choiceFor(strict, answer)
    if (choice !== undefined) return choice.value
    io.stderr.write(`    one of: ${describeChoices(strict)}\n`)
  }
}
