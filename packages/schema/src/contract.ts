// What a typed client relies on in a tool (docs/architecture.md "Schema hashing and change
// detection"): its parameters and, when it declares an outputSchema, the fields of its result,
// each as a name, a type signature and whether it is required. Small enough to keep as data (the
// modules `mcp-kit generate` writes do), and enough to classify a change.

import { createHash } from 'node:crypto'
import type { ToolChange } from './changes.js'
import { diffToolLists } from './diff.js'
import { fieldsOf } from './hash.js'
import { canonicalJson, compareText, setOwnValue, type TypeSignature } from './json-schema.js'
import type { ToolLike } from './tool-like.js'

/** One parameter or result field: `[name, type signature, required]`. */
export type FieldShape = [name: string, type: TypeSignature, required: boolean]

export interface ToolContract {
  name: string
  /** The parameters (top-level properties and required names of inputSchema), sorted by name. */
  input: FieldShape[]
  /** The result's fields, sorted by name; absent when the tool declares no outputSchema. */
  output?: FieldShape[]
}

/** The top-level fields of an object schema: its properties and any required name without one. */
function fieldShapes(schema: unknown): FieldShape[] {
  return [...fieldsOf(schema)]
    .sort(([left], [right]) => compareText(left, right))
    .map(([name, field]) => [name, field.signature, field.required])
}

/** The contract of one tool; a missing or malformed inputSchema counts as no parameters. */
export function toolContract(tool: ToolLike): ToolContract {
  const contract: ToolContract = { name: tool.name, input: fieldShapes(tool.inputSchema) }
  if (tool.outputSchema !== undefined && tool.outputSchema !== null)
    contract.output = fieldShapes(tool.outputSchema)
  return contract
}

/** 16 hex digits of SHA-256 over the contract's canonical JSON: equal contracts, equal hashes. */
export function hashContract(contract: ToolContract): string {
  const text = canonicalJson({ name: contract.name, input: contract.input, output: contract.output })
  return createHash('sha256').update(text).digest('hex').slice(0, 16)
}

function schemaOfType(type: TypeSignature): Record<string, unknown> {
  return type === null ? {} : { type }
}

function objectSchema(fields: readonly FieldShape[]): Record<string, unknown> {
  const properties: Record<string, unknown> = {}
  for (const [name, type] of fields) setOwnValue(properties, name, schemaOfType(type))
  const required = fields.filter((field) => field[2]).map(([name]) => name)
  return { type: 'object', properties, required }
}

/** A tool with exactly the contract's facts (and nothing else), as diffTools reads tools. */
function contractTool(contract: ToolContract): ToolLike {
  const tool: ToolLike = { name: contract.name, inputSchema: objectSchema(contract.input) }
  if (contract.output !== undefined) tool.outputSchema = objectSchema(contract.output)
  return tool
}

/**
 * Every change between two lists of contracts, classified as diffTools does, except that the
 * result's fields count as a typed caller reads them: a field removed, retyped or made optional,
 * or the outputSchema dropped, is breaking; a field added or made required is not.
 */
export function diffContracts(before: readonly ToolContract[], after: readonly ToolContract[]): ToolChange[] {
  return diffToolLists(before.map(contractTool), after.map(contractTool), true)
}
