// The text of a generated module: a header saying where it came from and how to regenerate it,
// the argument and result types, a `Client` interface with one documented method per tool (and
// the resources and prompts the server has), the `generated` record connect() checks the live
// server against, and connect(). What the server sent appears only as string literals, quoted
// keys and comment text that cannot end its comment; the code is this file's. Everything is
// sorted and nothing depends on the time, so an unchanged server gives the same bytes.

import type { GeneratedServer, Prompt, Resource, ResourceTemplate, Tool } from '@mcp-kit/client'
import { sanitizeLine } from '../../output/sanitize.js'
import { memberNames, typeName } from './member-names.js'
import { dataLiteral, stringLiteral } from './module-literal.js'
import { commentText, compileTypes, type TypeRequest } from './schema-types.js'

export interface ModuleModel {
  generated: GeneratedServer
  server: { name: string; version: string }
  /** The module's path as the regenerate command names it. */
  out: string
  tools: readonly Tool[]
  /** undefined: the server has no resources. */
  resources?: { listed: readonly Resource[]; templates: readonly ResourceTemplate[] }
  /** undefined: the server has no prompts. */
  prompts?: readonly Prompt[]
}

/** The client's own members: never a tool's method name. */
const clientMembers = ['session', 'close', 'readResource', 'prompts']
/** Type names the module declares or uses besides the schemas' own: never a schema type's name. */
const moduleTypes = ['Client', 'ResourceUri', 'Promise', 'Record']
/** Past this many listed resources (or with none listed nor templated) `ResourceUri` is any string. */
const maximumListedResources = 200

const byText = (left: string, right: string) => (left < right ? -1 : left > right ? 1 : 0)

function doc(lines: readonly (string | undefined)[], indent: string): string {
  const text = lines.filter((line): line is string => line !== undefined && line.trim() !== '').join('\n\n')
  const body = commentText(text)
    .split('\n')
    .map((line) => `${indent} *${line === '' ? '' : ` ${line}`}`)
  return [`${indent}/**`, ...body, `${indent} */`].join('\n')
}

/** A string literal in single quotes, as the rest of the module writes them. */
function quote(text: string): string {
  return `'${stringLiteral(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`
}

function property(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : quote(name)
}

function requiresArguments(schema: unknown): boolean {
  const required = (schema as { required?: unknown } | undefined)?.required
  return Array.isArray(required) && required.length > 0
}

/** `demo://x/{id}` → a template literal type matching every URI of the template. */
function templateType(template: string): string {
  const parts = template
    .split(/\{[^}]*\}/)
    .map((part) => part.replace(/[\\`$]/g, (character) => `\\${character}`))
  return `\`${parts.join('${string}')}\``
}

/** The type after `ResourceUri =`: a union, one member a line, or ` string`. */
function resourceUriType(resources: NonNullable<ModuleModel['resources']>): string {
  if (resources.listed.length > maximumListedResources) return ' string'
  const uris = [...new Set(resources.listed.map((resource) => resource.uri))].sort(byText)
  const templates = [...new Set(resources.templates.map((template) => template.uriTemplate))].sort(byText)
  const members = [...uris.map(quote), ...templates.map(templateType)]
  return members.length === 0 ? ' string' : members.map((member) => `\n  | ${member}`).join('')
}

/** Each name once (the first of a name, as the drift check reads tools), sorted unless told not to. */
function firstOfEachName<Item extends { name: string }>(items: readonly Item[], sorted = true): Item[] {
  const first = new Map<string, Item>()
  for (const item of items) if (!first.has(item.name)) first.set(item.name, item)
  const unique = [...first.values()]
  return sorted ? unique.sort((left, right) => byText(left.name, right.name)) : unique
}

function promptMembers(prompts: readonly Prompt[]): { declarations: string[]; bodies: string[] } {
  const names = memberNames(
    prompts.map((prompt) => prompt.name),
    [],
  )
  const declarations: string[] = []
  const bodies: string[] = []
  for (const prompt of firstOfEachName(prompts)) {
    const method = names.get(prompt.name) as string
    const fields = firstOfEachName(prompt.arguments ?? [], false).map((argument) => {
      const comment = argument.description ? `${doc([argument.description], '      ')}\n` : ''
      return `${comment}      ${property(argument.name)}${argument.required ? '' : '?'}: string`
    })
    const required = (prompt.arguments ?? []).some((argument) => argument.required)
    const type = fields.length === 0 ? 'Record<string, never>' : `{\n${fields.join('\n')}\n    }`
    declarations.push(
      doc([prompt.description, `@prompt ${prompt.name}`], '    '),
      `    ${method}(args${required ? '' : '?'}: ${type}, options?: kit.CallOptions): Promise<kit.GetPromptResult>`,
    )
    bodies.push(
      `      ${method}: (args, call) =>\n        session.getPrompt(${quote(prompt.name)}, { ...args } as Record<string, string>, call),`,
    )
  }
  return { declarations, bodies }
}

export async function renderModule(model: ModuleModel): Promise<string> {
  const tools = firstOfEachName(model.tools)
  const names = memberNames(
    tools.map((tool) => tool.name),
    clientMembers,
  )
  const requests: TypeRequest[] = []
  for (const tool of tools) {
    const type = typeName(names.get(tool.name) as string)
    requests.push({ name: `${type}Arguments`, schema: tool.inputSchema, description: tool.description })
    if (tool.outputSchema !== undefined) requests.push({ name: `${type}Result`, schema: tool.outputSchema })
  }
  const { code: types, names: typeNames } = await compileTypes(requests, moduleTypes)
  const declarations: string[] = []
  const bodies: string[] = []
  let next = 0
  for (const tool of tools) {
    const method = names.get(tool.name) as string
    const argumentsType = typeNames[next++] as string
    const structured = tool.outputSchema !== undefined
    const result = structured ? (typeNames[next++] as string) : 'kit.ToolContent'
    const optional = requiresArguments(tool.inputSchema) ? '' : '?'
    declarations.push(
      doc([tool.title, tool.description, `@tool ${tool.name}`], '  '),
      `  ${method}(args${optional}: ${argumentsType}, options?: kit.CallOptions): Promise<${result}>`,
    )
    bodies.push(
      structured
        ? `    ${method}: (args, call) =>\n      kit.callForStructured<${result}>(session, ${quote(tool.name)}, args, call),`
        : `    ${method}: (args, call) => kit.callForContent(session, ${quote(tool.name)}, args, call),`,
    )
  }
  const extra: string[] = []
  const extraBodies: string[] = []
  let uriType = ''
  if (model.resources !== undefined) {
    uriType = `/** The URIs readResource takes: the resources the server listed, and its templates. */\nexport type ResourceUri =${resourceUriType(model.resources)}\n\n`
    extra.push(
      doc(["Reads one of the server's resources (others: `session.readResource(uri)`)."], '  '),
      '  readResource(uri: ResourceUri, options?: kit.CallOptions): Promise<kit.ReadResourceResult>',
    )
    extraBodies.push('    readResource: (uri, call) => session.readResource(uri, call),')
  }
  if (model.prompts !== undefined && model.prompts.length > 0) {
    const prompts = promptMembers(model.prompts)
    extra.push(
      doc(["The server's prompts, one method each."], '  '),
      `  readonly prompts: {\n${prompts.declarations.join('\n')}\n  }`,
    )
    extraBodies.push(`    prompts: {\n${prompts.bodies.join('\n')}\n    },`)
  }
  const { generated } = model
  const server = sanitizeLine(`${model.server.name} ${model.server.version}`)
  const header = [
    `// A typed client for ${server}, written by \`mcp-kit generate\``,
    `// from ${sanitizeLine(generated.source)}.`,
    '// Do not edit; regenerate with:',
    `//   ${sanitizeLine(generated.regenerate)}`,
    `// connect() checks the server's tools against this module (schema ${sanitizeLine(generated.schemaHash)},`,
    `// policy ${generated.schemaValidation ?? 'error'}); in CI, \`mcp-kit profile validate ${sanitizeLine(model.out)}\``,
    '// does (exit 5 on a change the policy refuses).',
  ]
  const code = `${header.join('\n')}

import * as kit from '@mcp-kit/client'

${types}

${uriType}/** The server's tools as methods; a tool's error rejects with a kit.ClientError (\`tool_error\`). */
export interface Client {
${[...declarations, ...extra].join('\n')}
  /** The session underneath: lists, tasks, notifications. */
  readonly session: kit.Session
  /** Ends the session (and stops a stdio server). */
  close(): Promise<void>
}

/** What this module was generated from; connect() and \`mcp-kit profile validate\` check it. */
export const generated: kit.GeneratedServer = ${dataLiteral(generated)}

/**
 * Connects to the server this module was generated from (or \`options.server\`) and checks its
 * tools against the module by \`schemaValidation\` (default: \`generated.schemaValidation\`, else
 * 'error'): 'error' refuses any change, 'breaking' only a breaking one (and warns of the rest),
 * 'warn' says so, 'ignore' does not look.
 */
export async function connect(options: kit.GeneratedConnectOptions = {}): Promise<Client> {
  const session = await kit.openGenerated(generated, options)
  return {
${[...bodies, ...extraBodies].join('\n')}
    session,
    close: () => session.close(),
  }
}
`
  // A line separator is text in a comment and an escape in a literal; raw, it ends a `//` line.
  return code.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')
}
