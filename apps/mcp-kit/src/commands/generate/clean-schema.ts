// A server's JSON Schema as json-schema-to-typescript may see it. The schema is untrusted and the
// library writes parts of what it reads into code (`tsType`, enum names, definition keys in
// comments, any object a `$ref` lands on), so the schema is rebuilt keyword by keyword from what is
// known to be harmless: subschemas under the keywords that hold them, `type` as JSON type names,
// `enum` and `const` of strings, numbers, booleans and null, `required` names, boolean flags, and a
// description made safe for a comment (with defaults and constraints noted in it). A local `$ref`
// stays only if it lands on a subschema of the rebuilt schema, re-pointed into the combined
// schema (so `$defs` and recursion work, and no file or URL is ever read); a `$ref` into a value
// (`const`, `enum`, `default`, a description) or anywhere else is dropped: that type is unknown.
// Property names go in as placeholders that PropertyNames puts back in the code, quoted where they
// are not identifiers: the library reads every object as if it were a schema, so a property named
// `$ref`, `hasOwnProperty` or `constructor` would change what it does.

import { isRecord } from '@mcp-kit/core'
import { sanitizeText } from '../../output/sanitize.js'
import type { PropertyNames } from './property-names.js'

const maximumDepth = 48
/** Keywords that hold one subschema (`items` also a list of them). */
const single = new Set([
  'items',
  'additionalProperties',
  'additionalItems',
  'not',
  'contains',
  'propertyNames',
])
/** Keywords that hold a list of subschemas. */
const lists = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'])
/** Keywords that hold subschemas by name; `definitions` is merged into `$defs`. */
const maps = new Set(['properties', 'patternProperties', '$defs', 'definitions'])
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
const flags = ['deprecated', 'nullable', 'readOnly', 'writeOnly']
const jsonTypes = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'])
/** Longest note of a default or constraint in a description. */
const maximumNote = 200

type Schema = Record<string, unknown>

export function setOwn(record: Schema, key: string, value: unknown): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true })
}

/** Text for inside a `/** … *\/` comment: controls escaped, `*\/` broken. */
export function commentText(text: string): string {
  return sanitizeText(text).replace(/\*\//g, '*\\/')
}

function note(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > maximumNote ? `${text.slice(0, maximumNote)}…` : text
}

function describe(schema: Schema): string | undefined {
  const description = schema.description
  const lines = typeof description === 'string' && description.trim() !== '' ? [description.trim()] : []
  const notes = noted.filter((key) => Object.hasOwn(schema, key)).map((key) => `@${key} ${note(schema[key])}`)
  if (notes.length > 0) lines.push(notes.join('\n'))
  return lines.length === 0 ? undefined : commentText(lines.join('\n\n'))
}

function isLiteral(value: unknown): boolean {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  )
}

function cleanType(value: unknown): unknown {
  if (typeof value === 'string') return jsonTypes.has(value) ? value : undefined
  if (!Array.isArray(value)) return undefined
  const types = [...new Set(value.filter((type) => typeof type === 'string' && jsonTypes.has(type)))]
  return types.length > 0 ? types : undefined
}

/** The keywords whose values are data, each kept only in its harmless form. */
function copyData(schema: Schema, clean: Schema, keys: PropertyNames): void {
  const type = cleanType(schema.type)
  if (Object.hasOwn(schema, 'type') && type !== undefined) setOwn(clean, 'type', type)
  const values = schema.enum
  if (Object.hasOwn(schema, 'enum') && Array.isArray(values) && values.every(isLiteral))
    setOwn(clean, 'enum', [...values])
  if (Object.hasOwn(schema, 'const') && isLiteral(schema.const)) setOwn(clean, 'const', schema.const)
  const required = schema.required
  if (Object.hasOwn(schema, 'required') && Array.isArray(required))
    setOwn(
      clean,
      'required',
      required.filter((name) => typeof name === 'string').map((name) => keys.key(name)),
    )
  for (const flag of flags)
    if (Object.hasOwn(schema, flag) && typeof schema[flag] === 'boolean') setOwn(clean, flag, schema[flag])
  const description = describe(schema)
  if (description !== undefined) setOwn(clean, 'description', description)
}

/** A name for a definition or pattern that is safe in the comments the library writes with it. */
function safeKey(key: string, taken: Set<string>): string {
  const safe = key.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 80) || '_'
  // Nor a name objects have already (`constructor`): the library reads those from every object.
  const base = safe in Object.prototype ? `${safe}_` : safe
  let name = base
  for (let count = 2; taken.has(name); count++) name = `${base}${count}`
  taken.add(name)
  return name
}

function requiredOnly(schema: unknown): boolean {
  return isRecord(schema) && Object.keys(schema).every((key) => key === 'required' || key === 'description')
}

/** One request's schema being rebuilt: what pass two needs to re-point its `$ref`s. */
class Cleaner {
  /** Each rebuilt node with a local `$ref`, and the reference as the server wrote it. */
  readonly references = new Map<Schema, string>()
  /** For each map of the rebuilt schema (`properties`, `$defs`, …): the server's keys → ours. */
  readonly renamed = new WeakMap<object, Map<string, string>>()
  /** For a rebuilt `allOf`: the server's indexes → ours (required-only branches are left out). */
  readonly reindexed = new WeakMap<object, Map<number, number>>()
  /** `titled`: definitions are named after their tool, `<base> <name>` (see compileTypes). */
  constructor(
    readonly base: string,
    readonly titled: boolean,
    readonly keys: PropertyNames,
  ) {}

  clean(schema: unknown, depth: number): unknown {
    if (typeof schema === 'boolean') return schema
    if (!isRecord(schema) || depth > maximumDepth) return {}
    const clean: Schema = {}
    const reference = schema.$ref
    if (Object.hasOwn(schema, '$ref')) {
      // A remote or anchor reference cannot be followed offline: any value.
      if (typeof reference !== 'string' || (reference !== '#' && !reference.startsWith('#/'))) {
        const description = describe(schema)
        return description === undefined ? {} : { description }
      }
      this.references.set(clean, reference)
    }
    copyData(schema, clean, this.keys)
    for (const key of single) {
      const value = schema[key]
      if (Object.hasOwn(schema, key) && (isRecord(value) || typeof value === 'boolean'))
        setOwn(clean, key, this.clean(value, depth + 1))
    }
    for (const key of lists) {
      const value = schema[key]
      if (Object.hasOwn(schema, key) && Array.isArray(value)) this.cleanList(clean, key, value, depth)
    }
    for (const key of maps) {
      const value = schema[key]
      if (Object.hasOwn(schema, key) && isRecord(value)) this.cleanMap(clean, key, value, depth)
    }
    return clean
  }

  cleanList(clean: Schema, key: string, value: unknown[], depth: number): void {
    const items = value.map((item) => this.clean(item, depth + 1))
    // Branches that only say which properties are required (`anyOf: [{ required: ['a'] }, …]`)
    // have no type of their own; as types they would only add an index signature.
    const typed = items.filter((item) => !requiredOnly(item))
    if (key === 'allOf' && typed.length > 0) {
      const indexes = new Map<number, number>()
      items.forEach((item, index) => {
        if (!requiredOnly(item)) indexes.set(index, indexes.size)
      })
      this.reindexed.set(typed, indexes)
      setOwn(clean, key, typed)
    } else if (key === 'items' || typed.length > 0) setOwn(clean, key, items)
  }

  cleanMap(clean: Schema, key: string, value: Schema, depth: number): void {
    const target = key === 'definitions' ? '$defs' : key
    const existing = clean[target]
    const map: Schema = isRecord(existing) ? existing : {}
    const names = this.renamed.get(map) ?? new Map<string, string>()
    const taken = new Set(names.values())
    for (const name of Object.keys(value)) {
      const entry = this.clean(value[name], depth + 1)
      const safe = target === 'properties' ? this.keys.key(name) : safeKey(name, taken)
      // definitions and $defs of one schema share our $defs: a name given twice keeps the first.
      if (!names.has(name)) names.set(name, safe)
      // Named after their tool when a plain name would take one the module needs.
      if (this.titled && target === '$defs' && isRecord(entry)) setOwn(entry, 'title', `${this.base} ${safe}`)
      setOwn(map, safe, entry)
    }
    this.renamed.set(map, names)
    setOwn(clean, target, map)
  }

  /** The rebuilt schema's path a server's pointer lands on, and the subschema, if it lands on an object one. */
  resolve(root: unknown, reference: string): { path: string[]; target: unknown; last?: string } | undefined {
    const tokens: string[] = []
    for (const encoded of reference === '#' ? [] : reference.slice(2).split('/')) {
      try {
        tokens.push(decodeURIComponent(encoded).replaceAll('~1', '/').replaceAll('~0', '~'))
      } catch {
        return undefined
      }
    }
    let node: unknown = root
    const path: string[] = []
    for (let index = 0; index < tokens.length; index++) {
      if (!isRecord(node)) return undefined
      const keyword = tokens[index] as string
      const value = Object.hasOwn(node, keyword === 'definitions' ? '$defs' : keyword)
        ? node[keyword === 'definitions' ? '$defs' : keyword]
        : undefined
      if (single.has(keyword) && !Array.isArray(value)) {
        node = value
        path.push(keyword)
      } else if (lists.has(keyword) && Array.isArray(value)) {
        const position = tokens[++index] ?? ''
        if (!/^(?:0|[1-9][0-9]{0,8})$/.test(position)) return undefined
        const indexes = this.reindexed.get(value)
        const at = indexes === undefined ? Number(position) : indexes.get(Number(position))
        if (at === undefined) return undefined
        node = value[at]
        path.push(keyword, String(at))
      } else if (maps.has(keyword) && isRecord(value)) {
        const name = tokens[++index]
        if (name === undefined) return undefined
        const ours = this.renamed.get(value)?.get(name)
        if (ours === undefined || !Object.hasOwn(value, ours)) return undefined
        node = value[ours]
        path.push(keyword === 'definitions' ? '$defs' : keyword, ours)
      } else {
        return undefined
      }
    }
    // A boolean schema (`true`, `false`) the library cannot take as a target: that type is unknown.
    return isRecord(node) ? { path, target: node, last: tokens.at(-1) } : undefined
  }

  /** Pass two: each `$ref` re-pointed below `#/definitions/<base>`, or dropped. */
  repoint(root: unknown): void {
    for (const [node, reference] of this.references) {
      const resolved = this.resolve(root, reference)
      if (resolved === undefined) continue
      const { path, target } = resolved
      // The library names a referenced subschema after the pointer's last token (a property's
      // name, say) unless it has a title: titled, it is named after its tool too.
      const last = path.at(-1)
      if (
        this.titled &&
        last !== undefined &&
        path.at(-2) !== '$defs' &&
        isRecord(target) &&
        !Object.hasOwn(target, 'title')
      )
        setOwn(target, 'title', `${this.base} ${last.replace(/[^A-Za-z0-9_$.-]/g, '_').slice(0, 80)}`)
      const pointer = path
        .map((token) => `/${encodeURIComponent(token.replaceAll('~', '~0').replaceAll('/', '~1'))}`)
        .join('')
      setOwn(node, '$ref', `#/definitions/${this.base}${pointer}`)
    }
  }
}

/** The schema as the compiler may see it (see the header); `base` names it in the combined schema. */
export function cleanSchema(schema: unknown, base: string, titled: boolean, keys: PropertyNames): unknown {
  const cleaner = new Cleaner(base, titled, keys)
  const clean = cleaner.clean(schema, 0)
  cleaner.repoint(clean)
  return clean
}
