// Reading JSON Schema for a form: local $refs followed ($defs, definitions, any JSON pointer),
// allOf merged, nullable forms (type lists with null, anyOf/oneOf with a null branch, enums with
// null) recognized, and each schema classified as the widget that edits it.

import type { Schema } from '../types.ts'

const isObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Follows a local `$ref` (`#/$defs/Name`, `#/definitions/…`, `#`); unknown ones give {}. */
export function resolveRef(schema: Schema, root: Schema, depth = 0): Schema {
  const ref = schema.$ref
  if (typeof ref !== 'string' || depth > 16) return schema
  if (!ref.startsWith('#')) return {}
  let target: unknown = root
  for (const raw of ref
    .slice(1)
    .split('/')
    .filter((part) => part !== '')) {
    const part = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~')
    target = isObject(target) ? target[part] : undefined
  }
  if (!isObject(target)) return {}
  const { $ref: _, ...rest } = schema
  return { ...resolveRef(target, root, depth + 1), ...rest }
}

/** The schema with $ref followed and allOf merged into one (properties and required joined). */
export function normalize(input: unknown, root: Schema, depth = 0): Schema {
  if (!isObject(input)) return input === false ? { not: {} } : {}
  let schema = resolveRef(input, root)
  if (Array.isArray(schema.allOf) && depth < 16) {
    const { allOf, ...rest } = schema
    let merged: Schema = { ...rest }
    for (const part of allOf) {
      const each = normalize(part, root, depth + 1)
      merged = {
        ...each,
        ...merged,
        properties: { ...(each.properties as Schema), ...(merged.properties as Schema) },
        required: [
          ...new Set([
            ...((each.required as string[] | undefined) ?? []),
            ...((merged.required as string[] | undefined) ?? []),
          ]),
        ],
      }
    }
    if (Object.keys(merged.properties as Schema).length === 0) delete merged.properties
    schema = merged
  }
  return schema
}

export type Kind =
  | { kind: 'enum'; values: unknown[] }
  | { kind: 'const'; value: unknown }
  | { kind: 'string'; multiline: boolean; format?: string }
  | { kind: 'number'; integer: boolean }
  | { kind: 'boolean' }
  | { kind: 'object' }
  | { kind: 'array'; items: Schema }
  | { kind: 'choice'; variants: Schema[]; keyword: 'oneOf' | 'anyOf' }
  | { kind: 'json' }

export interface Classified {
  schema: Schema
  nullable: boolean
  kind: Kind
}

function typesOf(schema: Schema): string[] {
  if (typeof schema.type === 'string') return [schema.type]
  if (Array.isArray(schema.type))
    return schema.type.filter((type): type is string => typeof type === 'string')
  return []
}

/** What edits this schema, and whether null is one of its values. */
export function classify(input: unknown, root: Schema): Classified {
  let schema = normalize(input, root)
  let nullable = false
  const branches = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined
  const keyword = schema.oneOf !== undefined ? 'oneOf' : 'anyOf'
  if (Array.isArray(branches)) {
    const resolved = branches.map((branch) => normalize(branch, root))
    const others = resolved.filter(
      (branch) => !(typesOf(branch).length === 1 && typesOf(branch)[0] === 'null'),
    )
    nullable = others.length < resolved.length
    if (others.length === 1) {
      const { oneOf: _o, anyOf: _a, ...rest } = schema
      schema = { ...rest, ...(others[0] as Schema) }
    } else if (others.length > 1) {
      if (others.every((branch) => branch.const !== undefined))
        return { schema, nullable, kind: { kind: 'enum', values: others.map((branch) => branch.const) } }
      return { schema, nullable, kind: { kind: 'choice', variants: others, keyword } }
    }
  }
  const types = typesOf(schema)
  if (types.includes('null')) nullable = true
  const real = types.filter((type) => type !== 'null')
  if (Array.isArray(schema.enum)) {
    const values = schema.enum.filter((value) => value !== null)
    if (values.length < schema.enum.length) nullable = true
    return { schema, nullable, kind: { kind: 'enum', values } }
  }
  if (schema.const !== undefined) return { schema, nullable, kind: { kind: 'const', value: schema.const } }
  const type =
    real.length === 1 ? real[0] : real.length === 0 && isObject(schema.properties) ? 'object' : undefined
  switch (type) {
    case 'string': {
      const long = typeof schema.maxLength !== 'number' || schema.maxLength > 200
      const hinted = /multi-?line|paragraph|body|content|markdown|code|script|text$/i.test(
        `${String(schema.format ?? '')} ${String(schema.contentMediaType ?? '')} ${String(schema.title ?? '')}`,
      )
      return {
        schema,
        nullable,
        kind: {
          kind: 'string',
          multiline:
            long && (hinted || (typeof schema.default === 'string' && schema.default.includes('\n'))),
          ...(typeof schema.format === 'string' ? { format: schema.format } : {}),
        },
      }
    }
    case 'number':
    case 'integer':
      return { schema, nullable, kind: { kind: 'number', integer: type === 'integer' } }
    case 'boolean':
      return { schema, nullable, kind: { kind: 'boolean' } }
    case 'object':
      return { schema, nullable, kind: isObject(schema.properties) ? { kind: 'object' } : { kind: 'json' } }
    case 'array': {
      const items = Array.isArray(schema.prefixItems) || !isObject(schema.items) ? undefined : schema.items
      return { schema, nullable, kind: items === undefined ? { kind: 'json' } : { kind: 'array', items } }
    }
    default:
      return { schema, nullable, kind: { kind: 'json' } }
  }
}

/** A short name of a variant for a choice list: its title, its const, its type and keys. */
export function variantLabel(variant: Schema, index: number): string {
  if (typeof variant.title === 'string') return variant.title
  const properties = isObject(variant.properties) ? Object.keys(variant.properties) : []
  const discriminator = properties
    .map((name) => (variant.properties as Record<string, Schema>)[name])
    .find((property) => property?.const !== undefined)
  if (discriminator !== undefined) return String(discriminator.const)
  const types = typesOf(variant)
  if (properties.length > 0)
    return `{ ${properties.slice(0, 3).join(', ')}${properties.length > 3 ? ', …' : ''} }`
  return types.length > 0 ? types.join(' | ') : `option ${index + 1}`
}

/** The value a fresh field starts with: the schema's default, else nothing. */
export function initialValue(input: unknown, root: Schema): unknown {
  const { schema, kind } = classify(input, root)
  if (schema.default !== undefined) return structuredClone(schema.default)
  if (kind.kind === 'const') return kind.value
  if (kind.kind === 'object') {
    const value: Record<string, unknown> = {}
    const required = new Set((schema.required as string[] | undefined) ?? [])
    for (const [name, property] of Object.entries(schema.properties as Schema)) {
      const initial = initialValue(property, root)
      if (initial !== undefined || required.has(name)) {
        if (initial !== undefined) value[name] = initial
      }
    }
    return value
  }
  return undefined
}

/** Which variant of a choice a value fits best (const discriminators, then types). */
export function matchingVariant(variants: Schema[], value: unknown, root: Schema): number {
  if (value === undefined) return 0
  const index = variants.findIndex((variant) => {
    const { kind, schema } = classify(variant, root)
    if (kind.kind === 'object' && isObject(value)) {
      return Object.entries(schema.properties as Record<string, Schema>).every(([name, property]) => {
        const fixed = normalize(property, root).const
        return fixed === undefined || value[name] === fixed
      })
    }
    if (kind.kind === 'string') return typeof value === 'string'
    if (kind.kind === 'number') return typeof value === 'number'
    if (kind.kind === 'boolean') return typeof value === 'boolean'
    if (kind.kind === 'array') return Array.isArray(value)
    return false
  })
  return index === -1 ? 0 : index
}
