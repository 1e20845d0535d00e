// A 2xx answer against the document's schema for it. APIs often answer with more or less than
// their documents say, so by default an answer off its document is still returned, with what is
// off in the result's `_meta` (lenient); strict, it is an error result instead. Problems speak of
// "fields of the answer", not of the parameters a tool's arguments have. The validator is
// compiled on the first answer, not at load.

import { type ArgumentProblem, validateArguments } from '@mcp-kit/schema'
import type { JsonSchema } from '../schema/json-schema.js'

/** Where a result's warnings go in its `_meta`. */
export const warningKey = 'io.github.mcp-kit/openapi'

export interface AnswerCheck {
  /** The schema of the structured answer (the tool's outputSchema when it declares one). */
  schema: JsonSchema
  /** Refuse an answer off the document (true) or return it with warnings (false). */
  strict: boolean
}

const maximumProblems = 10

function line(problem: ArgumentProblem): string {
  const field = problem.path === '' ? undefined : `'${problem.path}'`
  switch (problem.keyword) {
    case 'required':
    case 'dependentRequired':
    case 'dependencies':
      return `field of the answer ${field ?? ''} is missing`.replace('  ', ' ')
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return `field of the answer ${field ?? ''} is not in the document`.replace('  ', ' ')
    default:
      return field === undefined
        ? `the answer ${problem.message}`
        : `field of the answer ${field} ${problem.message}`
  }
}

/** What is off in an answer, one line each; undefined when it matches (or cannot be checked). */
export function checkAnswer(check: AnswerCheck, value: unknown): string[] | undefined {
  let result: ReturnType<typeof validateArguments>
  try {
    result = validateArguments(value, check.schema)
  } catch {
    return undefined // a schema the validator cannot compile: nothing to hold the answer to
  }
  if (result.ok) return undefined
  const lines = result.errors.slice(0, maximumProblems).map(line)
  if (result.errors.length > maximumProblems) lines.push(`and ${result.errors.length - maximumProblems} more`)
  return lines
}
