// The assertions about a server's tools: the schema hash of `list: tools`, no breaking drift
// from a baseline (diffTools' classes), and a call's structuredContent against its outputSchema.

import type { Tool } from '@mcp-kit/client'
import type { BaselineTool, Failure } from '../collection-types.js'

export async function checkSchemaHash(tools: readonly Tool[], expected: string): Promise<Failure[]> {
  const { hashTools } = await import('@mcp-kit/schema')
  const actual = hashTools(tools)
  if (actual === expected) return []
  return [
    {
      assertion: 'schemaHash',
      message: `the tools' schema hash is ${actual}, expected ${expected} (names, required parameters or parameter types changed)`,
      expected,
      actual,
    },
  ]
}

/** Breaking changes fail (with `allow: none`, every change); each one is named in words. */
export async function checkDrift(
  tools: readonly Tool[],
  baseline: readonly BaselineTool[],
  allow: 'non-breaking' | 'none',
): Promise<Failure[]> {
  const { diffTools } = await import('@mcp-kit/schema')
  const changes = diffTools(baseline as never, tools as never).filter((change) =>
    allow === 'none' ? true : change.class === 'breaking',
  )
  return changes.map((change) => ({
    assertion: 'drift',
    message: `${change.class}: ${change.message}`,
    ...(change.before === undefined ? {} : { expected: change.before }),
    ...(change.after === undefined ? {} : { actual: change.after }),
  }))
}

export async function checkOutputSchema(
  tool: Tool | undefined,
  result: unknown,
  name: string,
): Promise<Failure[]> {
  const fail = (message: string): Failure[] => [{ assertion: 'outputSchema', message }]
  if (tool === undefined) return fail(`the server lists no tool '${name}'`)
  if (tool.outputSchema === undefined) return fail(`'${name}' declares no outputSchema`)
  const structured = (result as { structuredContent?: unknown } | undefined)?.structuredContent
  if (structured === undefined) return fail('the result has no structuredContent')
  const { formatProblems, validateArguments } = await import('@mcp-kit/schema')
  const check = validateArguments(structured, tool.outputSchema)
  if (check.ok) return []
  return fail(
    `structuredContent does not match the outputSchema: ${formatProblems(check.errors).split('\n').join('; ')}`,
  )
}
