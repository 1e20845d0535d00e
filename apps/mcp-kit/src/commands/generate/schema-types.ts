// JSON Schema → TypeScript for a generated module, with json-schema-to-typescript, fed the
// rebuilt schemas of clean-schema.ts (the server's are untrusted). Every type is compiled in one
// run, so names never collide.

import { randomUUID } from 'node:crypto'
import { isRecord } from '@mcp-kit/core'
import { CliError } from '../../base/errors.js'
import { cleanSchema, commentText, setOwn } from './clean-schema.js'
import { PropertyNames } from './property-names.js'

export { commentText } from './clean-schema.js'

/** One type to declare: its name and the schema it comes from. */
export interface TypeRequest {
  name: string
  schema: unknown
  description?: string
}

const rootName = 'McpKitGeneratedRoot'

/**
 * Lines the library adds that say nothing to a reader of the module, and the request markers.
 * A server's text is in comments as lines that start with ` * `, so what could end a comment here
 * is matched only from the start of a line (`^/**`), where only the library's own comments start.
 */
function tidy(code: string, marker: string): string {
  return code
    .replace(
      /\n \*\n \* This (interface|type) was referenced by `[^`]*`'s JSON-Schema\n \* via the `definition` "[^"\n]*"\./g,
      '',
    )
    .replace(
      /^\/\*\*\n \* This (interface|type) was referenced by `[^`]*`'s JSON-Schema\n \* via the `definition` "[^"\n]*"\.\n \*\/\n/gm,
      '',
    )
    .replace(new RegExp(`(\\n \\*)?\\n \\* ${marker} \\w+$`, 'gm'), '')
    .replace(/^\/\*\*\n \*\/\n/gm, '')
    .replace(new RegExp(`^export interface ${rootName} \\{\\}\\n+`, 'm'), '')
    .replace(/^export interface (\w+) \{\}$/gm, 'export type $1 = Record<string, never>')
    .trim()
}

/** Each declaration's name and the doc comment just above it. */
function declarations(code: string): Map<string, string> {
  const found = new Map<string, string>()
  for (const match of code.matchAll(/(\/\*\*(?:[^*]|\*(?!\/))*\*\/\n)?export (?:interface|type) (\w+)/g))
    found.set(match[2] as string, match[1] ?? '')
  return found
}

export interface CompiledTypes {
  code: string
  /** The name each request's type got, in the order of the requests. */
  names: string[]
}

/**
 * Declarations for every request, in one block of code, and the name each request's type got:
 * its own, unless something in the schemas took it (a definition, a property a `$ref` names) —
 * then the definitions are named after their tool (`DeleteToolArgumentsNode`), and a name still
 * taken gets a suffix (`GetSumArgumentsType`). None of `reserved` (the module's other names) is
 * declared. Each request's root is marked in its doc comment, with a word no server can know, so
 * that a type of the same name from elsewhere is never taken for it.
 */
export async function compileTypes(
  requests: readonly TypeRequest[],
  reserved: readonly string[],
): Promise<CompiledTypes> {
  const marker = `@mcpKitRequest${randomUUID().replaceAll('-', '')}`
  const names = requests.map((request) => request.name)
  let taken = new Set<string>()
  for (const [attempt, suffix] of ['', '', 'Type', 'Shape', 'Schema'].entries()) {
    for (const [index, name] of names.entries())
      if (taken.has(name)) names[index] = `${requests[index]?.name}${suffix}`
    const code = await compileOnce(requests, names, attempt > 0, marker)
    const declared = declarations(code)
    taken = new Set(names.filter((name) => !declared.get(name)?.includes(`${marker} ${name}\n`)))
    if (taken.size === 0 && !reserved.some((name) => declared.has(name)))
      return { code: tidy(code, marker), names }
  }
  throw new CliError('internal', 'the tool schemas give type names that collide; please report this server')
}

async function compileOnce(
  requests: readonly TypeRequest[],
  names: readonly string[],
  titled: boolean,
  marker: string,
): Promise<string> {
  const { compile } = await import('json-schema-to-typescript')
  const definitions: Record<string, unknown> = {}
  const keys = new PropertyNames(marker.slice('@mcpKitRequest'.length))
  for (const [index, request] of requests.entries()) {
    const name = names[index] as string
    const schema = cleanSchema(request.schema, name, titled, keys)
    const description = request.description === undefined ? '' : `${commentText(request.description)}\n\n`
    setOwn(definitions, name, {
      ...(isRecord(schema) ? schema : {}),
      title: name,
      description: `${description}${marker} ${name}`,
    })
  }
  const root = { title: rootName, type: 'object', properties: {}, additionalProperties: false, definitions }
  const code = await compile(root as Parameters<typeof compile>[0], rootName, {
    bannerComment: '',
    additionalProperties: false,
    declareExternallyReferenced: true,
    unreachableDefinitions: true,
    ignoreMinAndMaxItems: true,
    // No TypeScript enums: they are code, and their member names would come from the server.
    inferStringEnumKeysFromValues: false,
    strictIndexSignatures: true,
    unknownAny: true,
    format: true,
    style: { semi: false, singleQuote: true, printWidth: 110, trailingComma: 'all', bracketSpacing: true },
    $refOptions: { resolve: { external: false } },
  })
  return keys.restore(code)
}
