// A schema without the words deeper than its top level (`description`, `examples`): what a client
// needs to read a result's shape, at a fraction of the bytes (most of a large API's output schemas
// is prose). Shared subschemas are compacted once and stay shared.

import { isRecord } from '@mcp-kit/core'
import { sealJson } from '@mcp-kit/server/internal'
import { deepFreeze, type JsonSchema, schemaLists, schemaMaps, schemaValues } from './json-schema.js'

const prose = new Set(['description', 'examples'])
const compacted = new WeakMap<object, unknown>()

function compactNested(schema: unknown): unknown {
  if (!isRecord(schema)) return schema
  const known = compacted.get(schema)
  if (known !== undefined) return known
  const result = sealJson(compactChildren(schema, true))
  compacted.set(schema, result)
  return result
}

function compactChildren(schema: Record<string, unknown>, dropProse: boolean): JsonSchema {
  const result: JsonSchema = {}
  for (const [key, value] of Object.entries(schema)) {
    if (dropProse && prose.has(key)) continue
    if (schemaMaps.includes(key) && isRecord(value)) {
      result[key] = sealJson(
        Object.fromEntries(Object.entries(value).map(([name, item]) => [name, compactNested(item)])),
      )
    } else if ((schemaLists.includes(key) || key === 'items') && Array.isArray(value)) {
      result[key] = sealJson(value.map(compactNested))
    } else if (schemaValues.includes(key)) {
      result[key] = compactNested(value)
    } else {
      result[key] = value
    }
  }
  return result
}

/** The schema with its top level as it is and no `description` or `examples` below it. */
export function compactSchema(schema: JsonSchema): JsonSchema {
  return deepFreeze(compactChildren(schema, false))
}
