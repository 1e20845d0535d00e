// A stdio server given as a command line (the words after `mcp-kit … --`) plus the query that
// picks the operation. The words reach spawn() as they are; no shell ever reads them.

import { ProfileError } from '../errors.js'
import type { CommandReference, StdioServerSpec } from '../types.js'
import { type OperationPicker, pickFromQuery } from './operation.js'
import { parseQuery } from './query.js'
import { maxReferenceLength, refuseControlCharacters, refuseLeadingDash } from './text-checks.js'

// What a shell would act on in a program name. No shell runs it, so `node server.js | tee log`
// given as one word is a mistake, not a pipeline; say so instead of failing to find the program.
const shellSyntaxPattern = /[\s|&;<>()$`'"*?[\]{}!#~^]/
const maxCommandWords = 4096

/**
 * Parses a server's command line given as words (`mcp-kit inspect -- node server.js`) plus the
 * query that picks the operation (`tool=echo&message=hi`, without `?`). The words reach spawn()
 * as they are, without a shell; they are checked as the launch schemes' parts are: no control
 * characters anywhere, and a program that is neither empty, an option (`-e`), nor shell syntax.
 * Throws `ProfileError` (`invalid_reference`) and nothing else.
 */
export function parseCommandReference(words: readonly string[], queryString = ''): CommandReference {
  return readCommandReference(words, queryString, pickFromQuery)
}

/** parseCommandReference, with `pick` choosing the operation from the query (see operation.ts). */
export function readCommandReference(
  words: readonly string[],
  queryString: string,
  pick: OperationPicker,
): CommandReference {
  if (!Array.isArray(words) || words.some((word) => typeof word !== 'string'))
    throw new ProfileError('invalid_reference', 'a command line must be a list of strings')
  const [program, ...args] = words as string[]
  if (program === undefined || program === '')
    throw new ProfileError(
      'invalid_reference',
      'empty command: give a program after --, as in -- node server.js',
    )
  if (words.length > maxCommandWords)
    throw new ProfileError('invalid_reference', `the command line has more than ${maxCommandWords} words`)
  const length = words.reduce((sum, word) => sum + word.length, 0)
  if (length > maxReferenceLength) {
    throw new ProfileError(
      'invalid_reference',
      `the command line is too long (${length} characters; the limit is ${maxReferenceLength})`,
    )
  }
  refuseControlCharacters(program, 'the program')
  args.forEach((word, index) => {
    refuseControlCharacters(word, `argument ${index + 1} of the command`)
  })
  refuseLeadingDash(program, 'the program')
  const shell = shellSyntaxPattern.exec(program)
  if (shell) {
    throw new ProfileError(
      'invalid_reference',
      `the program ${JSON.stringify(program)} contains ${shell[0].trim() === '' ? 'a space' : `'${shell[0]}'`}: no shell runs it, so give the program and each argument as separate words (-- node server.js), with no pipes, redirections, quotes or globs`,
    )
  }
  refuseControlCharacters(queryString, 'the query')
  const query = parseQuery(queryString)
  if (query.command !== undefined || query.launchArgs.length > 0) {
    throw new ProfileError(
      'invalid_reference',
      'malformed query: command= and arg= apply to mcp+ schemes; with -- put every argument of the command after it',
    )
  }
  const server: StdioServerSpec = { transport: 'stdio', command: program, args }
  if (Object.keys(query.env).length > 0) server.env = { ...query.env }
  return { type: 'command', command: [program, ...args], server, ...pick(query) }
}
