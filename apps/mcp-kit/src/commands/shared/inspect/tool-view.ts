// `mcp-kit inspect @server/tool` (or ?tool=, --tool): one tool whole, for people — the full
// description, every parameter (nested ones too) with its type, requirement, default, allowed
// values, constraints and description, the output schema, the annotations, and a command line
// that calls it. Nothing is cut short. Every string the server chose passes the sanitizer.

import type { Tool } from '@mcp-kit/client'
import { isRecord } from '@mcp-kit/core'
import type { Operation, ResolvedReference } from '@mcp-kit/profiles'
import { sanitizeLine, sanitizeText } from '../../../output/sanitize.js'
import type { Style } from '../../../output/style.js'
import { describeType } from './render-inspect.js'

type Schema = Record<string, unknown>

/** What `inspect --format json` prints for one tool. */
export interface ToolDocument {
  reference: string
  server: { name: string; version: string; title?: string }
  protocolVersion: string
  transport: string
  launch: string
  tool: Tool
  /** A command line that calls the tool with its required parameters. */
  example: string
}

// Keywords that constrain a value, shown as `name: value` under a parameter.
const constraintKeywords = [
  'const',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'additionalProperties',
  'examples',
  'deprecated',
] as const

const maxDepth = 8

function json(value: unknown): string {
  return sanitizeLine(JSON.stringify(value) ?? String(value))
}

/** Indents every line of a (sanitized) multi-line text. */
function indent(text: string, prefix: string): string[] {
  return text.split('\n').map((line) => `${prefix}${line}`.trimEnd())
}

/** The type without its allowed values (they get their own line): string, number|null, string[]. */
function typeOf(schema: Schema): string {
  if (Array.isArray(schema.enum) && schema.type !== undefined)
    return describeType({ ...schema, enum: undefined })
  return describeType(schema, Number.POSITIVE_INFINITY)
}

/** One block per parameter, nested object properties as `parent.child`, array items as `list[].child`. */
function parameterLines(schema: Schema, prefix: string, depth: number, style: Style): string[] {
  const properties = isRecord(schema.properties) ? schema.properties : {}
  const required = new Set(Array.isArray(schema.required) ? schema.required : [])
  const lines: string[] = []
  for (const [name, value] of Object.entries(properties)) {
    const property = isRecord(value) ? value : {}
    const path = `${prefix}${name}`
    const head = [style.bold(sanitizeLine(path)), sanitizeLine(typeOf(property))]
    head.push(required.has(name) ? 'required' : 'optional')
    lines.push(`  ${head.join('  ')}`)
    if (typeof property.title === 'string') lines.push(`      title: ${sanitizeLine(property.title)}`)
    if (typeof property.description === 'string')
      lines.push(...indent(sanitizeText(property.description), '      '))
    if ('default' in property) lines.push(`      default: ${json(property.default)}`)
    if (Array.isArray(property.enum)) lines.push(`      one of: ${property.enum.map(json).join(', ')}`)
    for (const keyword of constraintKeywords) {
      if (keyword in property) lines.push(`      ${keyword}: ${json(property[keyword])}`)
    }
    if (depth < maxDepth) {
      if (isRecord(property.properties)) lines.push(...parameterLines(property, `${path}.`, depth + 1, style))
      const items = property.items
      if (isRecord(items) && isRecord(items.properties))
        lines.push(...parameterLines(items, `${path}[].`, depth + 1, style))
    }
  }
  return lines
}

/** A value the schema accepts, for the example call: its default, an example, the first allowed one, or one made up by type. */
function sampleValue(schema: Schema, depth = 0): unknown {
  if ('default' in schema) return schema.default
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0]
  if ('const' in schema) return schema.const
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0]
  const union = (schema.anyOf ?? schema.oneOf) as unknown
  if (Array.isArray(union) && isRecord(union[0])) return sampleValue(union[0], depth)
  const type = Array.isArray(schema.type) ? schema.type.find((name) => name !== 'null') : schema.type
  switch (type) {
    case 'integer':
    case 'number': {
      let value = typeof schema.minimum === 'number' ? schema.minimum : 1
      if (typeof schema.exclusiveMinimum === 'number') value = Math.max(value, schema.exclusiveMinimum + 1)
      if (typeof schema.maximum === 'number') value = Math.min(value, schema.maximum)
      return type === 'integer' ? Math.ceil(value) : value
    }
    case 'boolean':
      return true
    case 'array': {
      const count = typeof schema.minItems === 'number' ? schema.minItems : 0
      const item = isRecord(schema.items) && depth < maxDepth ? sampleValue(schema.items, depth + 1) : 'text'
      return Array.from({ length: count }, () => item)
    }
    case 'object':
      return sampleObject(schema, depth + 1)
    default: {
      const byFormat: Record<string, string> = {
        uri: 'https://example.com',
        url: 'https://example.com',
        email: 'user@example.com',
        date: '2025-01-01',
        'date-time': '2025-01-01T00:00:00Z',
        time: '00:00:00Z',
        uuid: '00000000-0000-4000-8000-000000000000',
      }
      const text = byFormat[schema.format as string] ?? 'text'
      const minimum = typeof schema.minLength === 'number' ? schema.minLength : 0
      return text.length >= minimum ? text : text.padEnd(minimum, 'x')
    }
  }
}

/** The required properties of an object schema, each with a sample value. */
function sampleObject(schema: Schema, depth: number): Record<string, unknown> {
  const result: Record<string, unknown> = {}
  if (depth > maxDepth) return result
  const properties = isRecord(schema.properties) ? schema.properties : {}
  for (const name of Array.isArray(schema.required) ? schema.required : []) {
    const property = properties[name]
    result[name] = sampleValue(isRecord(property) ? property : {}, depth)
  }
  return result
}

/** The argument words of the example: key=value for the required parameters (or --args JSON). */
function argumentWords(tool: Tool, operation: Extract<Operation, { kind: 'callTool' }>): string[] {
  const schema = isRecord(tool.inputSchema) ? tool.inputSchema : {}
  const given = operation.args
  const values: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(sampleObject(schema, 0))) {
    if (operation.defaults && name in operation.defaults) continue
    values[name] = value
  }
  for (const [name, value] of Object.entries(given)) values[name] = value
  const names = Object.keys(values)
  if (names.some((name) => name === '' || name.includes('='))) return ['--args', JSON.stringify(values)]
  return names.flatMap((name) => {
    const value = values[name]
    // Query arguments may repeat (lists); key=value repeats the same way.
    if (Object.hasOwn(given, name) && Array.isArray(value)) return value.map((item) => `${name}=${item}`)
    return [`${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`]
  })
}

/** A command line that calls the tool, naming the server as the user did. */
export async function toolExample(tool: Tool, resolved: ResolvedReference): Promise<string> {
  const operation = resolved.operation as Extract<Operation, { kind: 'callTool' }>
  const words = argumentWords(tool, operation)
  const reference = resolved.reference
  const { describeServer, formatReference, isValidName } = await import('@mcp-kit/profiles')
  // describeServer shell-quotes each word of a command line: the same is needed here.
  const commandLine = (args: string[]) => describeServer({ transport: 'stdio', command: 'mcp-kit', args })
  if (reference.type === 'command') {
    const env = Object.entries(reference.query.env).flatMap(([name, value]) => ['--env', `${name}=${value}`])
    return commandLine(['cat', '--tool', tool.name, ...words, ...env, '--', ...reference.command])
  }
  // The reference as given, naming the tool and nothing else (the arguments follow as key=value).
  const call = {
    query: { ...reference.query, tool: undefined, params: {} },
    operation: { kind: 'callTool' as const, args: {} },
  }
  let target: string
  if (reference.type === 'profile') {
    const name = reference.tool ?? reference.query.tool ?? tool.name
    const inPath = isValidName(name) ? { tool: name } : {}
    target = formatReference({ ...reference, ...inPath, ...call, operation: { ...call.operation, name } })
  } else
    target = formatReference({ ...reference, ...call, operation: { ...call.operation, name: tool.name } })
  return commandLine(['cat', target, ...words])
}

export function renderTool(document: ToolDocument, style: Style): string {
  const { tool, server } = document
  const lines: string[] = []
  const title = tool.title ? ` — ${sanitizeLine(tool.title)}` : ''
  lines.push(`${style.accent(style.bold(sanitizeLine(tool.name)))}${title}`)
  const serverTitle = server.title ? ` — ${sanitizeLine(server.title)}` : ''
  lines.push(
    style.dim(
      `${sanitizeLine(server.name)} ${sanitizeLine(server.version)}${serverTitle}, MCP ${sanitizeLine(document.protocolVersion)} over ${document.transport}: ${sanitizeLine(document.launch)}`,
    ),
  )
  if (tool.description) lines.push('', ...indent(sanitizeText(tool.description), ''))

  const input: Schema = isRecord(tool.inputSchema) ? tool.inputSchema : {}
  const count = isRecord(input.properties) ? Object.keys(input.properties).length : 0
  lines.push('', style.bold(`Parameters (${count})`))
  lines.push(...parameterLines(input, '', 0, style))
  if (input.additionalProperties !== undefined && input.additionalProperties !== false)
    lines.push(`  other parameters: ${json(input.additionalProperties)}`)

  lines.push('', style.bold('Output schema'))
  if (tool.outputSchema === undefined) lines.push('  (none: the result is content, not structured)')
  else lines.push(...indent(sanitizeText(JSON.stringify(tool.outputSchema, null, 2)), '  '))

  const annotations = Object.entries(tool.annotations ?? {})
  lines.push('', style.bold('Annotations'))
  if (annotations.length === 0) lines.push('  (none)')
  const width = Math.max(0, ...annotations.map(([name]) => name.length))
  for (const [name, value] of annotations)
    lines.push(
      `  ${sanitizeLine(name).padEnd(width)}  ${typeof value === 'string' ? sanitizeLine(value) : json(value)}`,
    )

  // Anything else the server said about the tool (execution, icons, _meta), as it said it.
  const known = new Set(['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'])
  for (const [name, value] of Object.entries(tool)) {
    if (known.has(name) || value === undefined) continue
    lines.push(
      '',
      style.bold(sanitizeLine(name)),
      ...indent(sanitizeText(JSON.stringify(value, null, 2)), '  '),
    )
  }

  lines.push('', style.bold('Example'), `  ${sanitizeLine(document.example)}`)
  return `${lines.join('\n')}\n`
}
