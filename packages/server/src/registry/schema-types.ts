// The TypeScript type a tool's or prompt's schema describes, so that a handler's arguments and
// result are typed from the schema it is registered with: a JSON Schema written as a literal
// (`as const`, or inline where a `const` type parameter infers it) or a Standard Schema
// validator (zod, valibot, arktype). Types only; the registry turns validators into JSON Schema
// (standard-schema.ts) and the runtime validates with ajv.

import type { StandardTypedV1 } from '@standard-schema/spec'

/** A JSON Schema, as clients see it. */
export type JsonSchema = Record<string, unknown>

/** The names JSON Schema's `type` keyword takes. */
export type JsonTypeName = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'object' | 'array'

/**
 * A JSON Schema as a literal, with the keywords that decide the type checked (a misspelt `type`
 * does not compile); other keywords pass as they are.
 */
export interface JsonSchemaLiteral {
  readonly type?: JsonTypeName | readonly JsonTypeName[]
  readonly properties?: { readonly [name: string]: JsonSchemaLiteral | boolean }
  readonly required?: readonly string[]
  readonly additionalProperties?: JsonSchemaLiteral | boolean
  readonly items?: JsonSchemaLiteral | boolean
  readonly prefixItems?: readonly (JsonSchemaLiteral | boolean)[]
  readonly enum?: readonly unknown[]
  readonly anyOf?: readonly (JsonSchemaLiteral | boolean)[]
  readonly oneOf?: readonly (JsonSchemaLiteral | boolean)[]
  readonly allOf?: readonly (JsonSchemaLiteral | boolean)[]
  readonly [keyword: string]: unknown
}

/** A Standard Schema validator (zod, valibot, arktype…): anything with `~standard`. */
export type StandardSchema = { readonly '~standard': StandardTypedV1.Props }

/**
 * What a tool's `inputSchema` and `outputSchema` may be: a JSON Schema literal, a validator, or a
 * JSON Schema typed no more closely than a record (one read at run time, or a variable written
 * without `as const`), which types nothing.
 */
export type ToolSchema = JsonSchemaLiteral | StandardSchema | Record<string, unknown>

/** What a compile error shows when a tool schema's `type` is not `object`. */
export interface ToolSchemaTypeMustBeObject {
  readonly 'MCP tools take and give objects': 'object'
}

/**
 * CheckedSchema for a tool's schemas, which MCP wants to be objects: a literal `type` other than
 * `object` at the top, or a validator of something else, is a compile error too. Used intersected
 * with the schema, so that a `const` type parameter still infers the schema as a literal.
 */
export type CheckedToolSchema<S> = S extends StandardSchema
  ? StandardTypedV1.InferOutput<S> extends Record<string, unknown>
    ? S
    : { readonly '~standard': ToolSchemaTypeMustBeObject }
  : S extends { readonly type: infer T }
    ? string extends T
      ? S
      : [T] extends ['object']
        ? CheckedSchema<S>
        : { readonly type: ToolSchemaTypeMustBeObject }
    : CheckedSchema<S>

type HasWideType<S> = S extends { readonly type: infer T } ? (string extends T ? true : false) : false

/**
 * `S` when it is a schema: a validator, a JSON Schema literal, or one whose literal types were
 * widened (`type: string`); otherwise JsonSchemaLiteral, so that a literal with a misspelt `type`,
 * at any depth, is a compile error naming it.
 */
export type CheckedSchema<S> = S extends StandardSchema
  ? S
  : S extends JsonSchemaLiteral
    ? S
    : HasWideType<S> extends true
      ? S
      : string extends keyof S
        ? S
        : JsonSchemaLiteral

type Simplify<T> = { [K in keyof T]: T[K] } & {}

type Member<S> = S extends readonly (infer M)[] ? M : never

type ObjectOf<S> = S extends { readonly properties: infer P extends object }
  ? Simplify<
      {
        -readonly [K in keyof P & string as K extends RequiredOf<S> ? K : never]: FromJsonSchema<P[K]>
      } & {
        -readonly [K in keyof P & string as K extends RequiredOf<S> ? never : K]?: FromJsonSchema<P[K]>
      } & AdditionalOf<S>
    >
  : S extends { readonly additionalProperties: infer A extends object }
    ? Record<string, FromJsonSchema<A>>
    : Record<string, unknown>

type RequiredOf<S> = S extends { readonly required: readonly (infer R)[] } ? R : never

// Properties a schema does not name are left out unless it says they are welcome: JSON Schema
// allows them by default, but a type that did would let a misspelt name compile.
type AdditionalOf<S> = S extends { readonly additionalProperties: true | object }
  ? { [name: string]: unknown }
  : unknown

type ArrayOf<S> = S extends { readonly prefixItems: infer P extends readonly unknown[] }
  ? { -readonly [I in keyof P]: FromJsonSchema<P[I]> }
  : S extends { readonly items: infer I }
    ? FromJsonSchema<I>[]
    : unknown[]

type FromTypeName<S, T> = T extends 'string'
  ? string
  : T extends 'number' | 'integer'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'object'
          ? ObjectOf<S>
          : T extends 'array'
            ? ArrayOf<S>
            : unknown

/**
 * The type of the values a JSON Schema literal accepts: `type` (one or a list), `properties` with
 * `required` (the others optional), `additionalProperties`, `items`/`prefixItems`, `enum`,
 * `const`, `anyOf`/`oneOf`. Other keywords (`$ref`, `allOf`, `if`…) narrow nothing: `unknown`.
 */
export type FromJsonSchema<S> = S extends true
  ? unknown
  : S extends false
    ? never
    : S extends { readonly const: infer C }
      ? C
      : S extends { readonly enum: readonly (infer E)[] }
        ? E
        : S extends { readonly anyOf: readonly unknown[] }
          ? FromJsonSchema<Member<S['anyOf']>>
          : S extends { readonly oneOf: readonly unknown[] }
            ? FromJsonSchema<Member<S['oneOf']>>
            : S extends { readonly type: infer T }
              ? FromTypeName<S, T extends readonly unknown[] ? T[number] : T>
              : S extends { readonly properties: object }
                ? ObjectOf<S>
                : unknown

/** The type a tool schema describes: a validator's output, or what a JSON Schema literal accepts. */
export type InferSchema<S> = S extends StandardSchema
  ? StandardTypedV1.InferOutput<S>
  : S extends JsonSchemaLiteral
    ? FromJsonSchema<S>
    : unknown

/** The arguments a tool's handler receives for this `inputSchema` (a plain record when it says nothing more). */
export type ToolArguments<S> = [ToolSchema] extends [S]
  ? Record<string, unknown>
  : InferSchema<S> extends infer A extends Record<string, unknown>
    ? A
    : Record<string, unknown>

type ArgumentName<A, Required extends boolean> = A extends { readonly name: infer N extends string }
  ? (A extends { readonly required: true } ? true : false) extends Required
    ? N
    : never
  : never

/**
 * A prompt's arguments as its `get` receives them: each declared name a string, the `required`
 * ones always present.
 */
export type PromptArguments<
  A extends readonly { readonly name: string; readonly required?: boolean | undefined }[],
> = number extends A['length']
  ? Record<string, string>
  : Simplify<
      { [N in ArgumentName<A[number], true>]: string } & { [N in ArgumentName<A[number], false>]?: string }
    >
