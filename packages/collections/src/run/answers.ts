// Answers to a server's questions during a step (`answers:`). A session's questions go to one
// handler for its whole life, so each server gets a switch that hands them to the handler of the
// step running on it. The package's own handler fills a form from the answers and the form's
// defaults; the CLI hands its `--input` mechanism instead (RunOptions.inputFor).

import type { ElicitRequestParams, ElicitResult, InputContext, InputHandler } from '@mcp-kit/client'
import { isRecord } from '@mcp-kit/core'
import type { Answers } from '../collection-types.js'

export interface InputSwitch {
  /** The handler the session is given. */
  handler: InputHandler
  /** The handler of the step about to run (undefined: questions are refused). */
  use(handler: InputHandler | undefined): void
}

/** One handler for the session; the questions go to whichever step's handler is in use. */
export function inputSwitch(roots: InputHandler['roots']): InputSwitch {
  let current: InputHandler | undefined
  return {
    handler: {
      elicit: async (request: ElicitRequestParams, context: InputContext) => {
        if (current?.elicit === undefined) {
          const { ClientError } = await import('@mcp-kit/client')
          throw new ClientError(
            'input_required',
            `the server asks "${request.message}" outside a step that answers questions`,
          )
        }
        return current.elicit(request, context)
      },
      roots: async (context: InputContext) => (await (current?.roots ?? roots)?.(context)) ?? [],
    },
    use(handler) {
      current = handler
    },
  }
}

/**
 * The package's answers to a step's questions: `decline`/`cancel`/`accept` as they say; a form
 * gets its defaults, then the step's fields; a required field nobody gave fails the step with
 * `input_required` naming it.
 */
export function answersHandler(answers: Answers | undefined): InputHandler {
  return {
    elicit: async (request) => {
      if (typeof answers === 'string') return { action: answers } as ElicitResult
      const { ClientError } = await import('@mcp-kit/client')
      const schema = (request as { requestedSchema?: Record<string, unknown> }).requestedSchema ?? {}
      const properties = isRecord(schema.properties)
        ? (schema.properties as Record<string, Record<string, unknown>>)
        : {}
      const required = Array.isArray(schema.required) ? (schema.required as string[]) : []
      if ((request as { mode?: string }).mode === 'url') {
        if (answers === undefined)
          throw new ClientError(
            'input_required',
            `the server asks to open a URL ("${request.message}"): answer it with 'answers: accept'`,
          )
        return { action: 'accept' }
      }
      const content: Record<string, unknown> = {}
      for (const [name, property] of Object.entries(properties))
        if (property.default !== undefined) content[name] = property.default
      Object.assign(content, isRecord(answers) ? answers : {})
      const missing = required.filter((name) => content[name] === undefined)
      if (missing.length > 0)
        throw new ClientError(
          'input_required',
          `the server asks "${request.message}" and needs ${missing.map((name) => `'${name}'`).join(', ')}: give ${missing.length === 1 ? 'it' : 'them'} in the step's answers`,
          { details: { missing } },
        )
      const { formatProblems, validateArguments } = await import('@mcp-kit/schema')
      const check = validateArguments(content, schema)
      if (!check.ok)
        throw new ClientError(
          'input_required',
          `the step's answers to "${request.message}" do not fit the form: ${formatProblems(check.errors).split('\n').join('; ')}`,
        )
      return { action: 'accept', content: content as ElicitResult['content'] }
    },
  }
}
