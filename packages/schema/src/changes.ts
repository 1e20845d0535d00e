// The changes diffTools reports: their kinds, the class of each kind, and counts by class.

import { compareText, type TypeSignature } from './json-schema.js'

export type ToolChangeClass = 'breaking' | 'non-breaking' | 'behavioural'

export type ToolChangeKind =
  | 'tool_removed'
  | 'tool_renamed'
  | 'required_parameter_added'
  | 'parameter_removed'
  | 'parameter_type_changed'
  | 'parameter_made_required'
  | 'parameter_renamed'
  | 'tool_added'
  | 'optional_parameter_added'
  | 'requirement_relaxed'
  | 'description_changed'
  | 'output_schema_changed'
  | 'annotations_changed'
  | 'output_schema_removed'
  | 'output_field_removed'
  | 'output_field_type_changed'
  | 'output_field_made_optional'
  | 'output_schema_added'
  | 'output_field_added'
  | 'output_field_made_required'

export interface ToolChange {
  class: ToolChangeClass
  kind: ToolChangeKind
  /** The tool's name (its old name for tool_renamed). */
  tool: string
  /** The parameter's name (its old name for parameter_renamed). */
  parameter?: string
  /** The result field's name (output_field_* kinds, from diffContracts). */
  field?: string
  /** The new name of a possibly renamed tool or parameter. */
  renamedTo?: string
  before?: unknown
  after?: unknown
  /** Plain English naming the tool and parameter. */
  message: string
}

export interface ChangeSummary {
  breaking: number
  nonBreaking: number
  behavioural: number
}

const classOfKind: Record<ToolChangeKind, ToolChangeClass> = {
  tool_removed: 'breaking',
  tool_renamed: 'breaking',
  required_parameter_added: 'breaking',
  parameter_removed: 'breaking',
  parameter_type_changed: 'breaking',
  parameter_made_required: 'breaking',
  parameter_renamed: 'breaking',
  tool_added: 'non-breaking',
  optional_parameter_added: 'non-breaking',
  requirement_relaxed: 'non-breaking',
  description_changed: 'non-breaking',
  output_schema_changed: 'behavioural',
  annotations_changed: 'behavioural',
  output_schema_removed: 'breaking',
  output_field_removed: 'breaking',
  output_field_type_changed: 'breaking',
  output_field_made_optional: 'breaking',
  output_schema_added: 'non-breaking',
  output_field_added: 'non-breaking',
  output_field_made_required: 'non-breaking',
}

export type ChangeFields = Omit<ToolChange, 'class'>

export function change(fields: ChangeFields): ToolChange {
  return { class: classOfKind[fields.kind], ...fields }
}

/** How many of the changes are breaking, non-breaking and behavioural. */
export function summarizeChanges(changes: readonly ToolChange[]): ChangeSummary {
  const summary: ChangeSummary = { breaking: 0, nonBreaking: 0, behavioural: 0 }
  for (const { class: changeClass } of changes) {
    if (changeClass === 'breaking') summary.breaking += 1
    else if (changeClass === 'non-breaking') summary.nonBreaking += 1
    else summary.behavioural += 1
  }
  return summary
}

/** True when any of the changes would break a caller. */
export function hasBreakingChanges(changes: readonly ToolChange[]): boolean {
  return changes.some((entry) => entry.class === 'breaking')
}

export function describeType(signature: TypeSignature): string {
  if (signature === null) return 'unknown'
  return typeof signature === 'string' ? signature : signature.join(' or ')
}

export function compareChanges(left: ToolChange, right: ToolChange): number {
  return (
    compareText(left.tool, right.tool) ||
    compareText(left.parameter ?? '', right.parameter ?? '') ||
    compareText(left.field ?? '', right.field ?? '') ||
    compareText(left.kind, right.kind) ||
    compareText(left.message, right.message)
  )
}
