// Classifies what changed between two tool lists (docs/architecture.md "Schema hashing and change
// detection"), so a profile user learns whether a server update will break their saved calls.

import { requiredParameters, toolSignature } from './hash.js'
import {
  canonicalJson,
  compareText,
  isRecord,
  ownValue,
  type TypeSignature,
  typeSignature,
} from './json-schema.js'
import { type ToolLike, usableTools } from './tool-like.js'

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

export interface ToolChange {
  class: ToolChangeClass
  kind: ToolChangeKind
  /** The tool's name (its old name for tool_renamed). */
  tool: string
  /** The parameter's name (its old name for parameter_renamed). */
  parameter?: string
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
}

type ChangeFields = Omit<ToolChange, 'class'>

function change(fields: ChangeFields): ToolChange {
  return { class: classOfKind[fields.kind], ...fields }
}

/** Every change from `before` to `after`, sorted by tool, then parameter, then kind. */
export function diffTools(before: readonly ToolLike[], after: readonly ToolLike[]): ToolChange[] {
  const beforeTools = toolsByName(before)
  const afterTools = toolsByName(after)
  const changes: ToolChange[] = []

  const removed = [...beforeTools.keys()].filter((name) => !afterTools.has(name)).sort(compareText)
  const unmatchedAdded = [...afterTools.keys()].filter((name) => !beforeTools.has(name)).sort(compareText)
  // A tool that disappears while another with exactly the same parameters appears was most
  // likely renamed; saying so is more useful than two unrelated changes.
  for (const name of removed) {
    const parameters = parameterSignatureText(beforeTools.get(name)!)
    const index = unmatchedAdded.findIndex(
      (candidate) => parameterSignatureText(afterTools.get(candidate)!) === parameters,
    )
    if (index === -1) {
      changes.push(change({ kind: 'tool_removed', tool: name, message: `tool '${name}' was removed` }))
      continue
    }
    const [renamedTo] = unmatchedAdded.splice(index, 1) as [string]
    changes.push(
      change({
        kind: 'tool_renamed',
        tool: name,
        renamedTo,
        message: `tool '${name}' was removed and '${renamedTo}' added with the same parameters: possibly renamed`,
      }),
    )
  }
  for (const name of unmatchedAdded) {
    changes.push(change({ kind: 'tool_added', tool: name, message: `tool '${name}' was added` }))
  }
  for (const [name, beforeTool] of beforeTools) {
    const afterTool = afterTools.get(name)
    if (afterTool !== undefined) changes.push(...compareTool(name, beforeTool, afterTool))
  }
  return changes.sort(compareChanges)
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

// The first tool of a name wins; a server listing a name twice is already broken.
function toolsByName(tools: readonly ToolLike[]): Map<string, ToolLike> {
  const byName = new Map<string, ToolLike>()
  for (const tool of usableTools(tools)) if (!byName.has(tool.name)) byName.set(tool.name, tool)
  return byName
}

function parameterSignatureText(tool: ToolLike): string {
  const { required, properties } = toolSignature(tool)
  return canonicalJson({ required, properties })
}

interface Parameter {
  signature: TypeSignature
  required: boolean
  schema: unknown
}

/** A tool's parameters: its properties plus any required name without a property schema. */
function parametersOf(tool: ToolLike): Map<string, Parameter> {
  const schema = isRecord(tool.inputSchema) ? tool.inputSchema : {}
  const declared = ownValue(schema, 'properties')
  const properties = isRecord(declared) ? declared : {}
  const required = new Set(requiredParameters(schema))
  const parameters = new Map<string, Parameter>()
  for (const name of new Set([...Object.keys(properties), ...required])) {
    const parameterSchema = ownValue(properties, name)
    parameters.set(name, {
      signature: typeSignature(parameterSchema, schema),
      required: required.has(name),
      schema: parameterSchema,
    })
  }
  return parameters
}

function compareTool(name: string, beforeTool: ToolLike, afterTool: ToolLike): ToolChange[] {
  const changes: ToolChange[] = []
  const prefix = `tool '${name}':`
  for (const field of ['description', 'title'] as const) {
    if (canonicalJson(beforeTool[field]) !== canonicalJson(afterTool[field])) {
      changes.push(
        change({
          kind: 'description_changed',
          tool: name,
          before: beforeTool[field],
          after: afterTool[field],
          message: `${prefix} ${field} changed`,
        }),
      )
    }
  }

  const beforeParameters = parametersOf(beforeTool)
  const afterParameters = parametersOf(afterTool)
  const removed = [...beforeParameters.keys()].filter((parameter) => !afterParameters.has(parameter))
  const unmatchedAdded = [...afterParameters.keys()].filter((parameter) => !beforeParameters.has(parameter))
  removed.sort(compareText)
  unmatchedAdded.sort(compareText)

  for (const parameter of removed) {
    const old = beforeParameters.get(parameter)!
    const signature = canonicalJson(old.signature)
    const index = unmatchedAdded.findIndex(
      (candidate) => canonicalJson(afterParameters.get(candidate)!.signature) === signature,
    )
    if (index === -1) {
      const requirement = old.required ? 'required' : 'optional'
      changes.push(
        change({
          kind: 'parameter_removed',
          tool: name,
          parameter,
          message: `${prefix} ${requirement} parameter '${parameter}' was removed`,
        }),
      )
      continue
    }
    const [renamedTo] = unmatchedAdded.splice(index, 1) as [string]
    changes.push(
      change({
        kind: 'parameter_renamed',
        tool: name,
        parameter,
        renamedTo,
        message: `${prefix} parameter '${parameter}' was removed and '${renamedTo}' added with the same type: possibly renamed`,
      }),
    )
  }
  for (const parameter of unmatchedAdded) {
    const required = afterParameters.get(parameter)!.required
    changes.push(
      change({
        kind: required ? 'required_parameter_added' : 'optional_parameter_added',
        tool: name,
        parameter,
        message: `${prefix} ${required ? 'required' : 'optional'} parameter '${parameter}' was added`,
      }),
    )
  }

  for (const [parameter, old] of beforeParameters) {
    const current = afterParameters.get(parameter)
    if (current === undefined) continue
    if (canonicalJson(old.signature) !== canonicalJson(current.signature)) {
      changes.push(
        change({
          kind: 'parameter_type_changed',
          tool: name,
          parameter,
          before: old.signature,
          after: current.signature,
          message: `${prefix} parameter '${parameter}' changed type from ${describeType(old.signature)} to ${describeType(current.signature)}`,
        }),
      )
    }
    if (old.required !== current.required) {
      changes.push(
        change({
          kind: current.required ? 'parameter_made_required' : 'requirement_relaxed',
          tool: name,
          parameter,
          message: `${prefix} parameter '${parameter}' ${current.required ? 'is now required' : 'is no longer required'}`,
        }),
      )
    }
    for (const field of ['description', 'title']) {
      const beforeText = isRecord(old.schema) ? ownValue(old.schema, field) : undefined
      const afterText = isRecord(current.schema) ? ownValue(current.schema, field) : undefined
      if (canonicalJson(beforeText) !== canonicalJson(afterText)) {
        changes.push(
          change({
            kind: 'description_changed',
            tool: name,
            parameter,
            before: beforeText,
            after: afterText,
            message: `${prefix} parameter '${parameter}' ${field} changed`,
          }),
        )
      }
    }
  }

  if (canonicalJson(beforeTool.outputSchema) !== canonicalJson(afterTool.outputSchema)) {
    changes.push(
      change({
        kind: 'output_schema_changed',
        tool: name,
        before: beforeTool.outputSchema,
        after: afterTool.outputSchema,
        message: `${prefix} output schema changed`,
      }),
    )
  }
  if (canonicalJson(beforeTool.annotations) !== canonicalJson(afterTool.annotations)) {
    changes.push(
      change({
        kind: 'annotations_changed',
        tool: name,
        before: beforeTool.annotations,
        after: afterTool.annotations,
        message: `${prefix} annotations changed`,
      }),
    )
  }
  return changes
}

function describeType(signature: TypeSignature): string {
  if (signature === null) return 'unknown'
  return typeof signature === 'string' ? signature : signature.join(' or ')
}

function compareChanges(left: ToolChange, right: ToolChange): number {
  return (
    compareText(left.tool, right.tool) ||
    compareText(left.parameter ?? '', right.parameter ?? '') ||
    compareText(left.kind, right.kind) ||
    compareText(left.message, right.message)
  )
}
