// Operation flags (mcp-kit's `--tool x`, `--resource uri`, `--prompt p`, `--list tools`) joined to
// a reference's parsed query as data, never as query text. A flag and the query key of its name
// must agree. Asked to, a query's other reserved keys become the chosen tool's arguments
// (`?tool=generate&prompt=hi`), and the picker says which: the caller, who can see the tool's
// parameters, decides whether they stand.

import { ProfileError } from '../errors.js'
import type { ListTarget, ReferenceQuery } from '../types.js'
import { type OperationPicker, operationFromQuery } from './operation.js'
import { addParam, listTargets } from './query.js'

/** The operation given apart from the reference; each field means what the query key of its name means. */
export interface OperationFlags {
  tool?: string | undefined
  resource?: string | undefined
  prompt?: string | undefined
  list?: string | undefined
}

export interface FlagOptions {
  flags?: OperationFlags | undefined
  /**
   * When a tool is chosen (in the path, the query or a flag), take the query's `resource=`,
   * `prompt=` and `list=` as its arguments instead of refusing two operations. A flag is never
   * an argument: it is how the user names an operation.
   */
  reservedAsArguments?: boolean | undefined
}

const flagKeys = ['tool', 'resource', 'prompt', 'list'] as const
const argumentKeys = ['resource', 'prompt', 'list'] as const

function listTarget(value: string): ListTarget {
  if ((listTargets as readonly string[]).includes(value)) return value as ListTarget
  throw new ProfileError(
    'invalid_reference',
    `--list ${JSON.stringify(value)} is not one of ${listTargets.join(', ')}`,
    { details: { list: value } },
  )
}

/** Adds the flags to a copy of `parsed`; a flag that disagrees with the reference is refused. */
function withFlags(
  parsed: ReferenceQuery,
  pathTool: string | undefined,
  flags: OperationFlags,
): ReferenceQuery {
  const query: ReferenceQuery = { ...parsed, params: { ...parsed.params } }
  for (const key of flagKeys) {
    const flag = flags[key]
    if (flag === undefined) continue
    const given = key === 'tool' && pathTool !== undefined ? pathTool : query[key]
    if (given !== undefined && given !== flag) {
      const where = key === 'tool' && pathTool !== undefined ? `'${given}' in the path` : `${key}=${given}`
      throw new ProfileError(
        'invalid_reference',
        `the ${key} is named twice, differently (${where} and --${key} ${flag}): give it once`,
        { details: { key, flag, reference: given } },
      )
    }
    // The path names the tool already; the same name again changes nothing.
    if (key === 'tool' && pathTool !== undefined) continue
    if (key === 'list') query.list = listTarget(flag)
    else query[key] = flag
  }
  return query
}

/**
 * A picker for readReference/readCommandReference that joins `options.flags` to the query and,
 * with `reservedAsArguments`, moves the reserved keys it takes as the tool's arguments into the
 * query's arguments, naming each in `ambiguous` (once per key).
 */
export function flagPicker(options: FlagOptions, ambiguous: string[]): OperationPicker {
  return (parsed, pathTool) => {
    const flags = options.flags ?? {}
    const query = withFlags(parsed, pathTool, flags)
    if (options.reservedAsArguments === true && (pathTool ?? query.tool) !== undefined) {
      for (const key of argumentKeys) {
        const value = query[key]
        if (value === undefined || flags[key] !== undefined) continue
        addParam(query.params, key, value)
        delete query[key]
        if (!ambiguous.includes(key)) ambiguous.push(key)
      }
    }
    return { query, operation: operationFromQuery(query, pathTool) }
  }
}
