// Classifies what changed between two tool lists (docs/architecture.md "Schema hashing and change
// detection"), so a profile user learns whether a server update will break their saved calls.

import { isRecord } from '@mcp-kit/core'
import { change, compareChanges, describeType, type ToolChange } from './changes.js'
import { fieldsOf, toolSignature } from './hash.js'
import { canonicalJson, compareText, ownValue } from './json-schema.js'
import { compareOutput } from './output-diff.js'
import { type ToolLike, usableTools } from './tool-like.js'

/** Every change from `before` to `after`, sorted by tool, then parameter, then kind. */
export function diffTools(before: readonly ToolLike[], after: readonly ToolLike[]): ToolChange[] {
  return diffToolLists(before, after, false)
}

/**
 * diffTools, and with `outputFields` an outputSchema's change is told field by field (as a typed
 * caller reads the result) instead of as one behavioural `output_schema_changed`.
 */
export function diffToolLists(
  before: readonly ToolLike[],
  after: readonly ToolLike[],
  outputFields: boolean,
): ToolChange[] {
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
    if (afterTool !== undefined) changes.push(...compareTool(name, beforeTool, afterTool, outputFields))
  }
  return changes.sort(compareChanges)
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

function compareTool(
  name: string,
  beforeTool: ToolLike,
  afterTool: ToolLike,
  outputFields: boolean,
): ToolChange[] {
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

  const beforeParameters = fieldsOf(beforeTool.inputSchema)
  const afterParameters = fieldsOf(afterTool.inputSchema)
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

  if (outputFields) {
    changes.push(...compareOutput(name, beforeTool.outputSchema, afterTool.outputSchema))
  } else if (canonicalJson(beforeTool.outputSchema) !== canonicalJson(afterTool.outputSchema)) {
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
