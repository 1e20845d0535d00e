// Checks on what a server answered, kept to what the client relies on: the field a result must have,
// structuredContent against the tool's outputSchema, the text a failed tool call is traced with.

import { isRecord } from '@mcp-kit/core'
import type { CallToolResult } from '@modelcontextprotocol/client'
import { ClientError } from '../errors.js'

/** Checks the one field a result must have to be usable, instead of a full schema pass per message. */
export function requireArray(result: unknown, field: string, what: string): Record<string, unknown> {
  if (!isRecord(result) || !Array.isArray(result[field])) {
    throw new ClientError('protocol_error', `${what}: the server's result has no '${field}' list`)
  }
  return result
}

export async function checkOutput(
  outputSchemas: Map<string, unknown>,
  name: string,
  result: CallToolResult,
  what: string,
): Promise<void> {
  const schema = outputSchemas.get(name)
  if (schema === undefined || result.isError) return
  if (!isRecord(result.structuredContent)) {
    throw new ClientError(
      'protocol_error',
      `${what}: the tool declares an outputSchema but returned no structuredContent`,
    )
  }
  const { formatProblems, validateArguments } = await import('@mcp-kit/schema')
  let check: ReturnType<typeof validateArguments>
  try {
    check = validateArguments(result.structuredContent, schema)
  } catch {
    return // the server's outputSchema does not compile: nothing to check against
  }
  if (!check.ok) {
    throw new ClientError(
      'protocol_error',
      `${what}: structuredContent does not match the tool's outputSchema: ${formatProblems(check.errors).split('\n').join('; ')}`,
      {
        details: { problems: check.errors },
      },
    )
  }
}

export function toolErrorText(result: CallToolResult): string {
  const text = result.content
    ?.filter((item): item is { type: 'text'; text: string } => item.type === 'text')
    .map((item) => item.text)
    .join('\n')
  return text && text !== '' ? text : 'the tool reported an error'
}
