// What `mcp-kit shell` prints for `help`, `help <tool>` (parameters, types, titled choices) and
// its lists; server-provided strings are made safe for the terminal.

import type { Tool } from '@mcp-kit/client'
import { clip, sanitizeLine } from '../../output/sanitize.js'
import { describeChoices, itemChoicesOf } from '../../session/schema-choices.js'
import { describeType } from '../shared/inspect/render-inspect.js'

export const shellHelp = `Commands:
  <tool> key=value …      call a tool; arguments as on the command line (quotes work), or one {json} word
  call <tool> key=value … the same, for a tool named like a command
  read <uri>              read a resource
  prompt <name> key=value …  get a prompt
  tools | resources | templates | prompts   list them
  help [tool]             this text, or a tool's parameters
  exit                    leave (or Ctrl-D)
Tab completes commands, tools, parameters and resource URIs; Ctrl-C cancels a running call.
Results are NDJSON records on stdout, as from 'mcp-kit cat'.`

/** `help <tool>`: its description, then a line per parameter. */
export function toolHelpText(tool: Tool): string {
  const lines = [`${sanitizeLine(tool.name)}${tool.description ? `  ${clip(tool.description, 300)}` : ''}`]
  const schema = (tool.inputSchema ?? {}) as Record<string, unknown>
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : [])
  for (const [parameter, property] of Object.entries(properties)) {
    const about = typeof property?.description === 'string' ? `  ${clip(property.description, 80)}` : ''
    // Titled enums: the titles say what the values mean.
    const choices = itemChoicesOf(property)
    const titled = choices.some((choice) => choice.title !== undefined)
      ? `  one of ${describeChoices(choices)}`
      : ''
    lines.push(
      `  ${sanitizeLine(parameter)}=${sanitizeLine(describeType(property))}${required.has(parameter) ? ' (required)' : ''}${titled}${about}`,
    )
  }
  if (Object.keys(properties).length === 0) lines.push('  (no parameters)')
  return lines.join('\n')
}

/** `tools`, `resources`, `templates`, `prompts`: a name per line, with what it is about. */
export function listText(what: string, rows: ReadonlyArray<[string, string | undefined]>): string {
  if (rows.length === 0) return `(no ${what})`
  const width = Math.min(40, Math.max(...rows.map(([name]) => sanitizeLine(name).length)))
  return rows
    .map(([name, about]) => {
      const shown = sanitizeLine(name)
      return about ? `${shown.padEnd(width)}  ${clip(about, 90)}` : shown
    })
    .join('\n')
}
