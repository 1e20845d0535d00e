// Tool arguments from every source, merged, coerced and validated before a call:
// profile defaults < query string < --args JSON < trailing key=value. Strings (query, key=value)
// are coerced to the types the inputSchema asks for; validation lists every problem.

import type { QueryArguments } from '@mcp-kit/profiles'
import { CliError } from '../base/errors.js'

/**
 * Parses trailing `key=value` words; repeated keys make lists. `arg:key=value` is the same (the
 * query's way to name a parameter called like a reserved key), so either form works anywhere.
 */
export function parseKeyValues(words: readonly string[]): QueryArguments {
  const result: QueryArguments = {}
  for (const word of words) {
    const equals = word.indexOf('=')
    if (equals <= 0) throw new CliError('usage', `argument ${JSON.stringify(word)}: expected key=value`)
    const named = word.slice(0, equals)
    const key = named.startsWith('arg:') && named.length > 4 ? named.slice(4) : named
    const value = word.slice(equals + 1)
    const existing = Object.hasOwn(result, key) ? result[key] : undefined
    const next =
      existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value]
    Object.defineProperty(result, key, { value: next, enumerable: true, writable: true, configurable: true })
  }
  return result
}

/** Parses `--args '{json}'`: must be a JSON object. */
export function parseJsonArguments(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {}
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new CliError('usage', `--args is not valid JSON: ${(error as Error).message}`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new CliError('usage', '--args must be a JSON object')
  return value as Record<string, unknown>
}

export interface ArgumentSources {
  defaults?: Record<string, unknown>
  query: QueryArguments
  json: Record<string, unknown>
  keyValues: QueryArguments
}

export interface PrepareOptions {
  /** --raw-strings: pass strings as they are. */
  rawStrings: boolean
  /** --no-validate: skip validation. */
  validate: boolean
  /** Told when the server's schema cannot be compiled (the arguments then go unchecked). */
  warn: (message: string) => void
}

function assign(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(source)) {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
  }
}

/**
 * Merges, coerces and validates. Throws CliError `invalid_arguments` listing every problem.
 * `inputSchema` undefined means the schema is unknown (not listed): strings pass as they are.
 */
export async function prepareArguments(
  tool: string,
  sources: ArgumentSources,
  inputSchema: unknown,
  options: PrepareOptions,
): Promise<Record<string, unknown>> {
  const { coerceArguments, formatProblems, validateArguments } = await import('@mcp-kit/schema')
  const coerce = (strings: QueryArguments) =>
    coerceArguments(strings, inputSchema ?? {}, { raw: options.rawStrings || inputSchema === undefined })
  const args: Record<string, unknown> = {}
  assign(args, sources.defaults ?? {})
  assign(args, coerce(sources.query))
  assign(args, sources.json)
  assign(args, coerce(sources.keyValues))
  if (options.validate && inputSchema !== undefined) {
    let result: ReturnType<typeof validateArguments>
    try {
      result = validateArguments(args, inputSchema)
    } catch (error) {
      // The server's schema itself is broken: we cannot check; the server will.
      options.warn(
        `cannot validate the arguments of '${tool}': ${(error as Error).message}; sending them unchecked`,
      )
      return args
    }
    if (!result.ok) {
      const lines = formatProblems(result.errors)
      throw new CliError(
        'invalid_arguments',
        `invalid arguments for tool '${tool}':\n  ${lines.split('\n').join('\n  ')}`,
        {
          details: { problems: result.errors },
        },
      )
    }
  }
  return args
}

/** Prompt arguments are strings on the wire: lists join with commas, other values go as JSON. */
export function stringifyPromptArguments(values: Record<string, unknown>): Record<string, string> {
  const result: Record<string, string> = {}
  for (const [key, value] of Object.entries(values)) {
    result[key] =
      typeof value === 'string' ? value : Array.isArray(value) ? value.join(',') : JSON.stringify(value)
  }
  return result
}
