// The values a registry entry asks for (environment variables, headers, arguments, URL variables):
// a fixed `value` with its `{name}` variables filled in, else the user's answer, else the default;
// a required one with none of these is missing. Answers are checked against the entry's `format`
// and `choices`. Nothing here runs anything: values become argv words, env values or URLs.

import { isRecord } from '@mcp-kit/core'
import { ProfileError } from '../errors.js'
import type { RegistryAnswers, RegistryInputField } from '../registry-types.js'

/** One value an entry asks for, as the user answers it (`name`). */
export interface RegistryInput {
  /** The name to answer it by: the variable or header name, a flag without dashes, a positional's valueHint. */
  name: string
  kind: 'env' | 'header' | 'argument' | 'variable'
  required: boolean
  secret: boolean
  description?: string
  format?: string
  choices?: string[]
  default?: string
  placeholder?: string
  /** A repeated argument: it takes several values (`--input name=a --input name=b`). */
  repeated?: boolean
  /** Whether a value was found for it (fixed, answered or a default). */
  answered: boolean
}

export interface InputContext {
  /** The user's answers by input name (several for a repeated argument). */
  values: RegistryAnswers
  /** Turns the entry's literal text into what the caller writes (a profile escapes `${`). */
  literal: (text: string) => string
  /** What is written for an input's value (a profile writes `${secret:…}` for a secret one). */
  answerText: (input: RegistryInput, value: string) => string
  /** Every input met, in order, answered or not. */
  inputs: RegistryInput[]
  /** Where the entry comes from, for messages: `io.github.owner/name@1.0.0`. */
  entry: string
  /** Text for a required input without a value (to show a launch, not to run it). */
  placeholder?: (input: RegistryInput) => string
}

const controlCharacters = /[\u0000-\u001f\u007f]/

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

/** Refuses text with control characters: it would become an argv word, a header or a URL. */
export function refuseControls(text: string, where: string, entry: string): string {
  if (controlCharacters.test(text)) {
    throw new ProfileError(
      'invalid_reference',
      `registry entry ${entry}: ${where} contains a control character`,
      { details: { entry, where } },
    )
  }
  return text
}

function describeInput(name: string, kind: RegistryInput['kind'], field: RegistryInputField): RegistryInput {
  const input: RegistryInput = {
    name,
    kind,
    required: field.isRequired === true,
    secret: field.isSecret === true,
    answered: false,
  }
  const description = stringOrUndefined(field.description)
  if (description !== undefined) input.description = description
  const format = stringOrUndefined(field.format)
  if (format !== undefined) input.format = format
  if (Array.isArray(field.choices))
    input.choices = field.choices.filter((choice): choice is string => typeof choice === 'string')
  const fallback = stringOrUndefined(field.default)
  if (fallback !== undefined) input.default = fallback
  const placeholder = stringOrUndefined(field.placeholder)
  if (placeholder !== undefined) input.placeholder = placeholder
  return input
}

function checkAnswer(input: RegistryInput, value: string, entry: string): void {
  const problem =
    input.choices !== undefined && input.choices.length > 0 && !input.choices.includes(value)
      ? `is not one of ${input.choices.map((choice) => JSON.stringify(choice)).join(', ')}`
      : input.format === 'number' && !/^-?\d+(?:\.\d+)?$/.test(value)
        ? 'is not a number'
        : input.format === 'boolean' && value !== 'true' && value !== 'false'
          ? 'is not true or false'
          : undefined
  if (problem !== undefined) {
    throw new ProfileError(
      'invalid_input',
      `registry entry ${entry}: the value given for ${input.name} ${problem}`,
      { details: { entry, input: input.name } },
    )
  }
}

/** The answers given for an input, as a list (empty when none). */
function givenValues(name: string, context: InputContext): readonly string[] {
  const given = Object.hasOwn(context.values, name) ? context.values[name] : undefined
  if (given === undefined) return []
  return typeof given === 'string' ? [given] : given
}

/** One answer as the launch writes it, after the checks. */
function takeAnswer(
  input: RegistryInput,
  value: unknown,
  context: InputContext,
  encoded: (value: string) => string,
) {
  if (typeof value !== 'string')
    throw new ProfileError(
      'invalid_input',
      `registry entry ${context.entry}: the value given for ${input.name} is not text`,
      {
        details: { entry: context.entry, input: input.name },
      },
    )
  refuseControls(value, `the value given for ${input.name}`, context.entry)
  checkAnswer(input, value, context.entry)
  input.answered = true
  return context.answerText(input, encoded(value))
}

/**
 * The text for one field: `{name}` in a fixed value filled from its variables (each an input of
 * its own), else the answer or the default. Undefined when it has none (a missing required one is
 * recorded in `context.inputs`; the caller refuses them all at once). `encode` applies to values
 * put into a template (a URL's `{tenant}`), not to the template's own text.
 */
export function fieldText(
  name: string,
  kind: RegistryInput['kind'],
  field: unknown,
  context: InputContext,
  encode: (value: string, atStart: boolean) => string = (value) => value,
): string | undefined {
  const data: RegistryInputField = isRecord(field) ? (field as RegistryInputField) : {}
  const fixed = stringOrUndefined(data.value)
  // A fixed value is the entry's, not a question; only its variables are.
  if (fixed !== undefined) return fillTemplate(fixed, data.variables, context, encode, name)
  const input = describeInput(name, kind, data)
  context.inputs.push(input)
  const given = givenValues(name, context)
  if (given.length > 1)
    throw new ProfileError(
      'invalid_input',
      `registry entry ${context.entry}: ${name} takes one value, and ${given.length} were given`,
      { details: { entry: context.entry, input: name } },
    )
  if (given.length === 1) return takeAnswer(input, given[0], context, (value) => encode(value, true))
  if (input.default !== undefined) {
    input.answered = true
    return context.literal(refuseControls(input.default, `the default of ${name}`, context.entry))
  }
  return input.required && context.placeholder !== undefined ? context.placeholder(input) : undefined
}

/**
 * The texts of a repeated argument: each answer given (`--input name=a --input name=b`), else
 * what `fieldText` gives for one value. A fixed `value` is one word, as the entry wrote it.
 */
export function fieldTexts(name: string, field: unknown, context: InputContext): string[] {
  const data: RegistryInputField = isRecord(field) ? (field as RegistryInputField) : {}
  const given = givenValues(name, context)
  if (stringOrUndefined(data.value) !== undefined || given.length < 2) {
    const text = fieldText(name, 'argument', field, context)
    const input = context.inputs.at(-1)
    if (input?.name === name && stringOrUndefined(data.value) === undefined) input.repeated = true
    return text === undefined ? [] : [text]
  }
  const input = describeInput(name, 'argument', data)
  input.repeated = true
  context.inputs.push(input)
  return given.map((value) => takeAnswer(input, value, context, (text) => text))
}

/**
 * `{name}` replaced by the variable's text; names not among the variables stay as written (the
 * registry's rule). The template's own text goes through `literal`.
 */
export function fillTemplate(
  template: string,
  variables: unknown,
  context: InputContext,
  encode: (value: string, atStart: boolean) => string,
  where: string,
): string {
  refuseControls(template, where, context.entry)
  const known = isRecord(variables) ? variables : {}
  let result = ''
  let last = 0
  for (const match of template.matchAll(/\{([A-Za-z_][A-Za-z0-9_.-]*)\}/g)) {
    const variable = match[1] as string
    if (!Object.hasOwn(known, variable)) continue
    const at = match.index ?? 0
    result += context.literal(template.slice(last, at))
    const text = fieldText(variable, 'variable', known[variable], context, (value) => encode(value, at === 0))
    // A variable with no value leaves its `{name}`, as the registry says; a required one is missing.
    result += text ?? context.literal(match[0])
    last = at + match[0].length
  }
  return result + context.literal(template.slice(last))
}

/** Refuses the launch when required inputs have no value, naming every one of them. */
export function refuseMissing(context: InputContext): void {
  const missing = context.inputs.filter((input) => input.required && !input.answered)
  if (missing.length === 0) return
  const names = [...new Set(missing.map((input) => input.name))]
  const described = missing
    .filter((input, index) => names.indexOf(input.name) === index)
    .map((input) => {
      const notes = [input.kind === 'env' ? 'environment variable' : input.kind, input.secret ? 'secret' : '']
        .filter(Boolean)
        .join(', ')
      const about = input.description === undefined ? '' : `: ${input.description.slice(0, 200)}`
      return `${input.name} (${notes}${about})`
    })
  throw new ProfileError(
    'missing_input',
    `registry entry ${context.entry} needs ${described.join('; ')}, and no value was given`,
    { details: { entry: context.entry, missing: names, inputs: missing } },
  )
}
