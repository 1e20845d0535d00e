// How a tool's file arguments are described to the model: base64, or `@name` of a file in the
// server's upload directory when it has one (http/files.ts reads them).

import type { PreparedOperation } from '../http/request.js'
import type { JsonSchema } from '../schema/json-schema.js'

/** A copy of `schema` whose property `name` is `change`d (schemas may be frozen and shared). */
function withProperty(
  schema: JsonSchema,
  name: string,
  change: (property: JsonSchema) => JsonSchema,
): JsonSchema {
  const properties = schema.properties as Record<string, JsonSchema> | undefined
  const property = properties?.[name]
  if (property === undefined) return schema
  return { ...schema, properties: { ...properties, [name]: change(property) } }
}

/**
 * The input schema with each file argument's description telling how to give the file. A new
 * object where something is added: the schemas it is made of may be shared by other tools.
 */
export function describeFiles(
  inputSchema: JsonSchema,
  prepared: PreparedOperation,
  directory: boolean,
): JsonSchema {
  const files = prepared.body?.files
  if (files === undefined || files.size === 0) return inputSchema
  const how = directory
    ? "A file: its bytes in base64, or '@name' of a file in the server's upload directory."
    : 'A file: its bytes in base64.'
  const described = (property: JsonSchema): JsonSchema => ({
    ...property,
    description: typeof property.description === 'string' ? `${property.description} ${how}` : how,
  })
  const plan = prepared.plan.body
  let schema = inputSchema
  for (const file of files) {
    schema =
      plan?.kind === 'whole'
        ? withProperty(schema, plan.argument, (whole) =>
            file === '' ? described(whole) : withProperty(whole, file, described),
          )
        : withProperty(schema, file, described)
  }
  return schema
}
