// Human text for `mcp-kit inspect`: aligned, readable, colour only when asked for. Every string
// the server chose (names, descriptions, URIs, enum values, capability names) passes the
// sanitizer before it is styled, so the only escape sequences written are our own colours.

import { clip, sanitizeLine, sanitizeText } from '../../../output/sanitize.js'
import type { Style } from '../../../output/style.js'
import type { InspectDocument } from './inspect-document.js'
import { renderApps } from './render-apps.js'

type Schema = Record<string, unknown>

/**
 * A short type for people: string, number, "a"|"b", string[], object, string|null. Past
 * `enumLimit` allowed values, the rest is shown as `…`.
 */
export function describeType(schema: unknown, enumLimit = 6): string {
  if (typeof schema !== 'object' || schema === null) return 'any'
  const value = schema as Schema
  if (Array.isArray(value.enum)) {
    const shown = value.enum.slice(0, enumLimit).map((item) => JSON.stringify(item))
    return value.enum.length > enumLimit ? `${shown.join('|')}|…` : shown.join('|')
  }
  if ('const' in value) return JSON.stringify(value.const)
  const union = (value.anyOf ?? value.oneOf) as unknown[] | undefined
  if (Array.isArray(union)) return [...new Set(union.map((item) => describeType(item, enumLimit)))].join('|')
  if (typeof value.$ref === 'string') return value.$ref.split('/').pop() ?? 'object'
  const types = Array.isArray(value.type)
    ? (value.type as string[])
    : typeof value.type === 'string'
      ? [value.type]
      : []
  if (types.length === 0) return value.properties ? 'object' : 'any'
  return types
    .map((type) =>
      type === 'array' ? `${describeType(value.items, enumLimit).replace(/^(.*\|.*)$/, '($1)')}[]` : type,
    )
    .join('|')
}

/** A short type, safe to print (enum values and $ref names come from the server). */
function shownType(schema: unknown): string {
  return sanitizeLine(describeType(schema))
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
    if (typeof value !== 'object' || value === null) return sanitizeLine(name)
    const flags = Object.entries(value)
      .filter(([, enabled]) => enabled === true)
      .map(([flag]) => sanitizeLine(flag))
    return flags.length === 0 ? sanitizeLine(name) : `${sanitizeLine(name)} (${flags.join(', ')})`
  })
  return parts.length === 0 ? '(none)' : parts.join(', ')
}

/** "60 s public (server/discover, tools/list, …)", one group per distinct hint. */
function cacheList(hints: NonNullable<InspectDocument['cacheHints']>): string {
  const groups = new Map<string, string[]>()
  for (const [method, hint] of Object.entries(hints)) {
    const key = `${Math.round(hint.ttlMs / 100) / 10} s ${sanitizeLine(hint.scope)}`
    groups.set(key, [...(groups.get(key) ?? []), method])
  }
  return [...groups].map(([hint, methods]) => `${hint} (${methods.map(sanitizeLine).join(', ')})`).join('; ')
}

/** 812 B, 14.2 KiB, 11.1 MiB. */
function byteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`
}

/** 450, 12.3 thousand, 2.92 million. */
function count(value: number): string {
  if (value < 10_000) return value.toLocaleString('en-US')
  if (value < 1_000_000) return `${(value / 1000).toFixed(1)} thousand`
  return `${(value / 1_000_000).toFixed(2)} million`
}

export function renderInspect(document: InspectDocument, style: Style): string {
  const lines: string[] = []
  const server = document.server
  const title = server.title ? ` — ${sanitizeLine(server.title)}` : ''
  lines.push(`${style.bold(sanitizeLine(server.name))} ${sanitizeLine(server.version)}${title}`)
  lines.push(
    style.dim(
      `MCP ${sanitizeLine(document.protocolVersion)} over ${document.transport}: ${sanitizeLine(document.launch)}`,
    ),
  )
  lines.push(`Capabilities: ${capabilityList(document.capabilities)}`)
  if (document.cacheHints && Object.keys(document.cacheHints).length > 0) {
    lines.push(style.dim(`Cache hints: ${cacheList(document.cacheHints)}`))
  }
  if (document.instructions) lines.push(`Instructions: ${clip(document.instructions, 300)}`)
  lines.push(style.dim(`Schema hash: ${document.schemaHash}`))
  const size = document.toolsListSize
  lines.push(
    style.dim(
      `Tools list: ${byteSize(size.bytes)} of JSON, about ${count(size.approximateTokens)} tokens (bytes ÷ 4)`,
    ),
  )

  lines.push('', style.bold(`Tools (${document.tools.length})`))
  for (const tool of document.tools) {
    const description = clip(tool.description ?? tool.title, 100)
    lines.push(
      `  ${style.accent(sanitizeLine(tool.name))}${description ? `  ${style.dim(description)}` : ''}`,
    )
    const schema = (tool.inputSchema ?? {}) as Schema
    const properties = (schema.properties ?? {}) as Record<string, Schema>
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : [])
    const rows = Object.entries(properties).map(([name, property]) => [
      sanitizeLine(name),
      shownType(property),
      required.has(name) ? 'required' : '',
      clip(property?.description as string | undefined, 80),
    ])
    lines.push(...table(rows, '      ', [style.bold, (text) => text, (text) => text, style.dim]))
  }

  lines.push('', style.bold(`Resources (${document.resources.length})`))
  lines.push(
    ...table(
      document.resources.map((resource) => [
        sanitizeLine(resource.uri),
        sanitizeLine(resource.name),
        sanitizeLine(resource.mimeType ?? ''),
        clip(resource.description, 60),
      ]),
      '  ',
      [style.accent, (text) => text, style.dim, style.dim],
    ),
  )
  lines.push('', style.bold(`Resource templates (${document.resourceTemplates.length})`))
  lines.push(
    ...table(
      document.resourceTemplates.map((template) => [
        sanitizeLine(template.uriTemplate),
        sanitizeLine(template.name),
        sanitizeLine(template.mimeType ?? ''),
        clip(template.description, 60),
      ]),
      '  ',
      [style.accent, (text) => text, style.dim, style.dim],
    ),
  )
  lines.push('', style.bold(`Prompts (${document.prompts.length})`))
  for (const prompt of document.prompts) {
    const description = clip(prompt.description ?? prompt.title, 100)
    lines.push(
      `  ${style.accent(sanitizeLine(prompt.name))}${description ? `  ${style.dim(description)}` : ''}`,
    )
    const rows = (prompt.arguments ?? []).map((argument) => [
      sanitizeLine(argument.name),
      argument.required ? 'required' : '',
      clip(argument.description, 80),
    ])
    lines.push(...table(rows, '      ', [style.bold, (text) => text, style.dim]))
  }
  if (document.apps !== undefined) lines.push('', ...renderApps(document.apps, style))
  for (const error of document.errors ?? [])
    lines.push('', `Could not list ${error.list}: ${sanitizeText(error.message)}`)
  return `${lines.join('\n')}\n`
}
