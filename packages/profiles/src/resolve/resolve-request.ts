// The structured way in: a reference (or a command line and its query) with the operation given
// as fields, as mcp-kit's command line gives them (`--tool x`). Nothing is pasted into query
// text: the flags join the parsed query as data (reference/operation-flags.ts), and the answer
// says which reserved keys were taken as the chosen tool's arguments.

import { ProfileError } from '../errors.js'
import { readCommandReference } from '../reference/command-reference.js'
import { flagPicker, type OperationFlags } from '../reference/operation-flags.js'
import { readReference } from '../reference/parse-reference.js'
import { type ResolvedReference, type ResolveOptions, resolveReference } from './resolve-reference.js'

export interface ReferenceRequest {
  /** A reference as typed (`@demo/echo`, `mcp+npx://pkg?tool=x`); or else `command`. */
  reference?: string | undefined
  /** A stdio server's command line as words (what follows `mcp-kit … --`). */
  command?: readonly string[] | undefined
  /** With `command`: the query that goes with it (`tool=echo&message=hi`; a leading `?` is allowed). */
  query?: string | undefined
  /** The operation given apart from the text; each field must agree with the query key of its name. */
  operation?: OperationFlags | undefined
  /**
   * When a tool is chosen and the query also has `resource=`, `prompt=` or `list=`, take those as
   * the tool's arguments (named in `ambiguous`) instead of refusing two operations.
   */
  reservedAsArguments?: boolean | undefined
}

export interface ReferenceResolution {
  resolved: ResolvedReference
  /**
   * Reserved keys (of resource, prompt, list, in that order) taken as the tool's arguments
   * because the tool was already chosen. They are the tool's arguments only if the tool has such
   * parameters; the caller, which can list the tool, checks that. Empty unless
   * `reservedAsArguments`.
   */
  ambiguous: string[]
}

/**
 * Resolves a reference given as parts: the text or a command line, the operation as fields,
 * and whether reserved keys may be the chosen tool's arguments. Errors are resolveReference's;
 * a flag that disagrees with the reference, or a reference and a command line together, are
 * `invalid_reference`.
 */
export async function resolveReferenceRequest(
  request: ReferenceRequest,
  options: ResolveOptions = {},
): Promise<ReferenceResolution> {
  const ambiguous: string[] = []
  const pick = flagPicker(
    { flags: request.operation, reservedAsArguments: request.reservedAsArguments },
    ambiguous,
  )
  let reference: ReturnType<typeof readReference> | ReturnType<typeof readCommandReference>
  if (request.command !== undefined) {
    if (request.reference !== undefined) {
      throw new ProfileError(
        'invalid_reference',
        'give a reference or a command line, not both (the query of a command line is `query`)',
      )
    }
    const query = request.query ?? ''
    reference = readCommandReference(request.command, query.startsWith('?') ? query.slice(1) : query, pick)
  } else {
    if (request.query !== undefined) {
      throw new ProfileError(
        'invalid_reference',
        '`query` goes with a command line; a reference carries its query after `?`',
      )
    }
    reference = readReference(request.reference as string, pick)
  }
  return { resolved: await resolveReference(reference, options), ambiguous }
}
