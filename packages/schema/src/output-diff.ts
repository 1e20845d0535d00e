// How a tool's result changed, field by field, as a caller typed against its outputSchema reads
// it (diffContracts): losing or retyping a field breaks it, gaining one does not.

import { change, describeType, type ToolChange } from './changes.js'
import { fieldsOf } from './hash.js'
import { canonicalJson } from './json-schema.js'

/** The result's fields before and after, as a typed caller reads them (see diffToolLists). */
export function compareOutput(name: string, before: unknown, after: unknown): ToolChange[] {
  const prefix = `tool '${name}':`
  const had = before !== undefined && before !== null
  const has = after !== undefined && after !== null
  if (!had || !has) {
    if (had === has) return []
    return [
      change({
        kind: has ? 'output_schema_added' : 'output_schema_removed',
        tool: name,
        message: `${prefix} ${has ? 'now declares' : 'no longer declares'} an output schema`,
      }),
    ]
  }
  const changes: ToolChange[] = []
  const beforeFields = fieldsOf(before)
  const afterFields = fieldsOf(after)
  for (const [field, old] of beforeFields) {
    const current = afterFields.get(field)
    if (current === undefined) {
      changes.push(
        change({
          kind: 'output_field_removed',
          tool: name,
          field,
          message: `${prefix} result field '${field}' was removed`,
        }),
      )
      continue
    }
    if (canonicalJson(old.signature) !== canonicalJson(current.signature)) {
      changes.push(
        change({
          kind: 'output_field_type_changed',
          tool: name,
          field,
          before: old.signature,
          after: current.signature,
          message: `${prefix} result field '${field}' changed type from ${describeType(old.signature)} to ${describeType(current.signature)}`,
        }),
      )
    }
    if (old.required !== current.required) {
      changes.push(
        change({
          kind: current.required ? 'output_field_made_required' : 'output_field_made_optional',
          tool: name,
          field,
          message: `${prefix} result field '${field}' ${current.required ? 'is now always there' : 'may now be missing'}`,
        }),
      )
    }
  }
  for (const field of afterFields.keys()) {
    if (beforeFields.has(field)) continue
    changes.push(
      change({
        kind: 'output_field_added',
        tool: name,
        field,
        message: `${prefix} result field '${field}' was added`,
      }),
    )
  }
  return changes
}
