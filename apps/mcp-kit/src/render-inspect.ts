// Human text for `mcp-kit inspect`: aligned, readable, colour only when asked for.

import type { InspectDocument } from './inspect-document.js'

export interface Style {
  bold(text: string): string
  dim(text: string): string
  accent(text: string): string
}

export function createStyle(color: boolean): Style {
  const wrap = (open: number, close: number) => (text: string) =>
    color ? `\u001b[${open}m${text}\u001b[${close}m` : text
  return { bold: wrap(1, 22), dim: wrap(2, 22), accent: wrap(36, 39) }
}

type Schema = Record<string, unknown>

/** A short type for people: string, number, "a"|"b", string[], object, string|null. */
export function describeType(schema: unknown): string {
  if (typeof schema !== 'object' || schema === null) return 'any'
  const value = schema as Schema
  if (Array.isArray(value.enum)) {
    const shown = value.enum.slice(0, 6).map((item) => JSON.stringify(item))
    return value.enum.length > 6 ? `${shown.join('|')}|…` : shown.join('|')
  }
  if ('const' in value) return JSON.stringify(value.const)
  const union = (value.anyOf ?? value.oneOf) as unknown[] | undefined
  if (Array.isArray(union)) return [...new Set(union.map(describeType))].join('|')
  if (typeof value.$ref === 'string') return value.$ref.split('/').pop() ?? 'object'
  const types = Array.isArray(value.type)
    ? (value.type as string[])
    : typeof value.type === 'string'
      ? [value.type]
      : []
  if (types.length === 0) return value.properties ? 'object' : 'any'
  return types
    .map((type) => (type === 'array' ? `${describeType(value.items).replace(/^(.*\|.*)$/, '($1)')}[]` : type))
    .join('|')
}

function oneLine(text: string | undefined, limit = 100): string {
  if (!text) return ''
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > limit ? `${flat.slice(0, limit - 1)}…` : flat
}

function table(rows: string[][], indent: string, styles: Array<(text: string) => string>): string[] {
  const widths: number[] = []
  for (const row of rows) {
    for (const [index, cell] of row.entries()) widths[index] = Math.max(widths[index] ?? 0, cell.length)
  }
  return rows.map((row) => {
    const cells = row.map((cell, index) => {
      const padded = index === row.length - 1 ? cell : cell.padEnd(widths[index] ?? 0)
      return (styles[index] ?? ((text: string) => text))(padded)
    })
    return `${indent}${cells.join('  ')}`.trimEnd()
  })
}

function capabilityList(capabilities: Record<string, unknown>): string {
  const parts = Object.entries(capabilities).map(([name, value]) => {
    if (typeof value !== 'object' || value === null) return name
    const flags = Object.entries(value)
      .filter(([, enabled]) => enabled === true)
      .map(([flag]) => flag)
    return flags.length === 0 ? name : `${name} (${flags.join(', ')})`
  })
  return parts.length === 0 ? '(none)' : parts.join(', ')
}

export function renderInspect(document: InspectDocument, style: Style): string {
  const lines: string[] = []
  const title = document.server.title ? ` — ${document.server.title}` : ''
  lines.push(`${style.bold(document.server.name)} ${document.server.version}${title}`)
  lines.push(style.dim(`MCP ${document.protocolVersion} over ${document.transport}: ${document.launch}`))
  lines.push(`Capabilities: ${capabilityList(document.capabilities)}`)
  if (document.instructions) lines.push(`Instructions: ${oneLine(document.instructions, 300)}`)
  lines.push(style.dim(`Schema hash: ${document.schemaHash}`))

  lines.push('', style.bold(`Tools (${document.tools.length})`))
  for (const tool of document.tools) {
    const description = oneLine(tool.description ?? tool.title)
    lines.push(`  ${style.accent(tool.name)}${description ? `  ${style.dim(description)}` : ''}`)
    const schema = (tool.inputSchema ?? {}) as Schema
    const properties = (schema.properties ?? {}) as Record<string, Schema>
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : [])
    const rows = Object.entries(properties).map(([name, property]) => [
      name,
      describeType(property),
      required.has(name) ? 'required' : '',
      oneLine(property?.description as string | undefined, 80),
    ])
    lines.push(...table(rows, '      ', [style.bold, (text) => text, (text) => text, style.dim]))
  }

  lines.push('', style.bold(`Resources (${document.resources.length})`))
  lines.push(
    ...table(
      document.resources.map((resource) => [
        resource.uri,
        resource.name,
        resource.mimeType ?? '',
        oneLine(resource.description, 60),
      ]),
      '  ',
      [style.accent, (text) => text, style.dim, style.dim],
    ),
  )
  lines.push('', style.bold(`Resource templates (${document.resourceTemplates.length})`))
  lines.push(
    ...table(
      document.resourceTemplates.map((template) => [
        template.uriTemplate,
        template.name,
        template.mimeType ?? '',
        oneLine(template.description, 60),
      ]),
      '  ',
      [style.accent, (text) => text, style.dim, style.dim],
    ),
  )
  lines.push('', style.bold(`Prompts (${document.prompts.length})`))
  for (const prompt of document.prompts) {
    const description = oneLine(prompt.description ?? prompt.title)
    lines.push(`  ${style.accent(prompt.name)}${description ? `  ${style.dim(description)}` : ''}`)
    const rows = (prompt.arguments ?? []).map((argument) => [
      argument.name,
      argument.required ? 'required' : '',
      oneLine(argument.description, 80),
    ])
    lines.push(...table(rows, '      ', [style.bold, (text) => text, style.dim]))
  }
  for (const error of document.errors ?? []) lines.push('', `Could not list ${error.list}: ${error.message}`)
  return `${lines.join('\n')}\n`
}
