// Schema hashing for change detection (docs/architecture.md "Schema hashing and change detection"): a
// profile stores the hash of the tools it was written against and compares on use. Only what
// breaks callers counts (names, required parameters, parameter types), so a reworded
// description does not raise an alarm.

import { createHash } from 'node:crypto'
import { isRecord } from '@mcp-kit/core'
import {
  canonicalJson,
  compareText,
  ownValue,
  setOwnValue,
  type TypeSignature,
  typeSignature,
} from './json-schema.js'
import { type ToolLike, usableTools } from './tool-like.js'

/** What the hash covers for one tool. */
export interface ToolSignature {
  name: string
  /** Required parameter names, sorted. */
  required: string[]
  /** Each top-level parameter's type signature, keys sorted. */
  properties: Record<string, TypeSignature>
}

/** The hashed facts of one tool; a missing or malformed inputSchema counts as no parameters. */
export function toolSignature(tool: ToolLike): ToolSignature {
  const schema = isRecord(tool.inputSchema) ? tool.inputSchema : {}
  const properties: Record<string, TypeSignature> = {}
  const declared = ownValue(schema, 'properties')
  if (isRecord(declared)) {
    for (const name of Object.keys(declared).sort(compareText)) {
      setOwnValue(properties, name, typeSignature(declared[name], schema))
    }
  }
  return { name: tool.name, required: requiredParameters(schema), properties }
}

/** Sorted, de-duplicated names in a schema's `required` array. */
export function requiredParameters(schema: Record<string, unknown>): string[] {
  const required = ownValue(schema, 'required')
  if (!Array.isArray(required)) return []
  const names = required.filter((name): name is string => typeof name === 'string')
  return [...new Set(names)].sort(compareText)
}

/** The exact text hashTools hashes: the tools' signatures sorted by name, as canonical JSON. */
export function canonicalToolSignatures(tools: readonly ToolLike[]): string {
  const entries = usableTools(tools).map((tool) => {
    const signature = toolSignature(tool)
    return { name: signature.name, text: canonicalJson(signature) }
  })
  // Ties (duplicate names) are broken by content so the order of the input never matters.
  entries.sort((left, right) => compareText(left.name, right.name) || compareText(left.text, right.text))
  return `[${entries.map((entry) => entry.text).join(',')}]`
}

/** `sha256:<hex>` over canonicalToolSignatures(tools). */
export function hashTools(tools: readonly ToolLike[]): string {
  return `sha256:${createHash('sha256').update(canonicalToolSignatures(tools)).digest('hex')}`
}

/** A parameter or result field as diffs compare it. */
export interface Field {
  signature: TypeSignature
  required: boolean
  schema: unknown
}

/** An object schema's fields: its properties plus any required name without a property schema. */
export function fieldsOf(objectSchema: unknown): Map<string, Field> {
  const schema = isRecord(objectSchema) ? objectSchema : {}
  const declared = ownValue(schema, 'properties')
  const properties = isRecord(declared) ? declared : {}
  const required = new Set(requiredParameters(schema))
  const fields = new Map<string, Field>()
  for (const name of new Set([...Object.keys(properties), ...required])) {
    const fieldSchema = ownValue(properties, name)
    fields.set(name, {
      signature: typeSignature(fieldSchema, schema),
      required: required.has(name),
      schema: fieldSchema,
    })
  }
  return fields
}
