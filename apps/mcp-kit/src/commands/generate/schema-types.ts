// JSON Schema → TypeScript for a generated module, with json-schema-to-typescript. A server's
// schemas are untrusted input, so they are copied keyword by keyword first: only local `$ref`s
// stay (re-pointed into one combined schema, so `$defs` and recursion work and no file or URL is
// ever read), the library's code-injecting extensions (`tsType`, `tsEnumNames`) and naming keys
// (`$id`, nested `title`) go, descriptions are made safe for a comment, and defaults and
// constraints are noted in them. Every type is compiled in one run, so names never collide.

import { CliError } from '../../cli/errors.js'
import { sanitizeText } from '../../output/sanitize.js'

/** One type to declare: its name and the schema it comes from. */
export interface TypeRequest {
  name: string
  schema: unknown
  description?: string
}

const maximumDepth = 48
const single = ['items', 'additionalProperties', 'additionalItems', 'not', 'contains', 'propertyNames']
const lists = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']
const maps = ['properties', 'patternProperties', '$defs', 'definitions']
const noted = [
  'default',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minItems',
  'maxItems',
  'uniqueItems',
]
const data = ['type', 'enum', 'const', 'required', 'deprecated', 'nullable', 'readOnly', 'writeOnly']

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function setOwn(record: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true })
}

/** Text for inside a `/** … *\/` comment: controls escaped, `*\/` broken. */
export function commentText(text: string): string {
  return sanitizeText(text).replace(/\*\//g, '*\\/')
}

function describe(schema: Record<string, unknown>, description: unknown): string | undefined {
  const lines = typeof description === 'string' && description.trim() !== '' ? [description.trim()] : []
  const notes = noted
    .filter((key) => Object.hasOwn(schema, key))
    .map((key) => `@${key} ${JSON.stringify(schema[key])}`)
  if (notes.length > 0) lines.push(notes.join('\n'))
  return lines.length === 0 ? undefined : commentText(lines.join('\n\n'))
}

function requiredOnly(schema: unknown): boolean {
  return isRecord(schema) && Object.keys(schema).every((key) => key === 'required' || key === 'description')
}

/** A local `$ref` re-pointed below the combined schema's `definitions/<base>`; others are unknown. */
function pointer(reference: unknown, base: string): string | undefined {
  if (typeof reference !== 'string' || (reference !== '#' && !reference.startsWith('#/'))) return undefined
  return `#/definitions/${base}${reference.slice(1)}`
}

/** The schema as the compiler may see it: see the header. */
export function cleanSchema(schema: unknown, base: string, depth = 0, titled = false): unknown {
  if (typeof schema === 'boolean') return schema
  if (!isRecord(schema) || depth > maximumDepth) return {}
  const clean: Record<string, unknown> = {}
  if (Object.hasOwn(schema, '$ref')) {
    const target = pointer(schema.$ref, base)
    // A remote or anchor reference cannot be followed offline: any value.
    if (target === undefined) {
      const description = describe(schema, schema.description)
      return description === undefined ? {} : { description }
    }
    setOwn(clean, '$ref', target)
  }
  for (const key of data) if (Object.hasOwn(schema, key)) setOwn(clean, key, structuredClone(schema[key]))
  const description = describe(schema, schema.description)
  if (description !== undefined) setOwn(clean, 'description', description)
  for (const key of single) {
    const value = schema[key]
    if (Object.hasOwn(schema, key) && (isRecord(value) || typeof value === 'boolean'))
      setOwn(clean, key, cleanSchema(value, base, depth + 1, titled))
  }
  for (const key of lists) {
    const value = schema[key]
    if (!Object.hasOwn(schema, key) || !Array.isArray(value)) continue
    const items = value.map((item) => cleanSchema(item, base, depth + 1, titled))
    // Branches that only say which properties are required (`anyOf: [{ required: ['a'] }, …]`)
    // have no type of their own; as types they would only add an index signature.
    const typed = items.filter((item) => !requiredOnly(item))
    if (key === 'allOf' && typed.length > 0) setOwn(clean, key, typed)
    else if (key === 'items' || typed.length > 0) setOwn(clean, key, items)
  }
  for (const key of maps) {
    const value = schema[key]
    if (!Object.hasOwn(schema, key) || !isRecord(value)) continue
    const map: Record<string, unknown> = {}
    for (const name of Object.keys(value)) {
      const entry = cleanSchema(value[name], base, depth + 1, titled)
      // Named after their tool when a plain name would take one the module needs.
      const named = titled && key !== 'properties' && key !== 'patternProperties' && isRecord(entry)
      setOwn(map, name, named ? { ...entry, title: `${base} ${name}` } : entry)
    }
    setOwn(clean, key, map)
  }
  return clean
}

const rootName = 'McpKitGeneratedRoot'

/** Lines the library adds that say nothing to a reader of the module. */
function tidy(code: string): string {
  return code
    .replace(
      /\n \*\n \* This (interface|type) was referenced by `[^`]*`'s JSON-Schema\n \* via the `definition` "[^"\n]*"\./g,
      '',
    )
    .replace(
      /\/\*\*\n \* This (interface|type) was referenced by `[^`]*`'s JSON-Schema\n \* via the `definition` "[^"\n]*"\.\n \*\/\n/g,
      '',
    )
    .replace(new RegExp(`export interface ${rootName} \\{\\}\\n+`), '')
    .replace(/export interface (\w+) \{\}/g, 'export type $1 = Record<string, never>')
    .trim()
}

function declared(code: string): Set<string> {
  return new Set([...code.matchAll(/^export (?:interface|type) (\w+)/gm)].map((match) => match[1] as string))
}

/**
 * Declarations for every request, in one block of code; each request's name is declared as is,
 * and none of `reserved` (the module's other names) is. The library numbers a name taken twice
 * (`GetSumArguments1`): should a definition inside a schema take one of these names, the
 * definitions are compiled again named after their tool (`DeleteToolArgumentsNode`).
 */
export async function compileTypes(
  requests: readonly TypeRequest[],
  reserved: readonly string[],
): Promise<string> {
  const fits = (code: string) => {
    const names = declared(code)
    return (
      requests.every((request) => names.has(request.name)) &&
      !reserved.some((name) => names.has(name)) &&
      ![...names].some((name) => requests.some((request) => new RegExp(`^${request.name}\\d+$`).test(name)))
    )
  }
  const plain = await compileOnce(requests, false)
  if (fits(plain)) return plain
  const titled = await compileOnce(requests, true)
  if (fits(titled)) return titled
  throw new CliError('internal', 'the tool schemas give type names that collide; please report this server')
}

async function compileOnce(requests: readonly TypeRequest[], titled: boolean): Promise<string> {
  const { compile } = await import('json-schema-to-typescript')
  const definitions: Record<string, unknown> = {}
  for (const request of requests) {
    const schema = cleanSchema(request.schema, request.name, 0, titled)
    const description = request.description === undefined ? undefined : commentText(request.description)
    setOwn(definitions, request.name, {
      ...(isRecord(schema) ? schema : {}),
      title: request.name,
      ...(description === undefined ? {} : { description }),
    })
  }
  const root = { title: rootName, type: 'object', properties: {}, additionalProperties: false, definitions }
  const code = await compile(root as Parameters<typeof compile>[0], rootName, {
    bannerComment: '',
    additionalProperties: false,
    declareExternallyReferenced: true,
    unreachableDefinitions: true,
    ignoreMinAndMaxItems: true,
    strictIndexSignatures: true,
    unknownAny: true,
    format: true,
    style: { semi: false, singleQuote: true, printWidth: 110, trailingComma: 'all', bracketSpacing: true },
    $refOptions: { resolve: { external: false } },
  })
  return tidy(code)
}
