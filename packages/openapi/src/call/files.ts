// How a tool's file arguments are described to the model: base64, or `@name` of a file in the
// server's upload directory when it has one (http/files.ts reads them).

import type { PreparedOperation } from '../http/request.js'
import type { JsonSchema } from '../schema/json-schema.js'

/** Adds to each file argument's description how to give the file. */
export function describeFiles(
  inputSchema: JsonSchema,
  prepared: PreparedOperation,
  directory: boolean,
): void {
  const files = prepared.body?.files
  if (files === undefined || files.size === 0) return
  const properties = inputSchema.properties as Record<string, JsonSchema> | undefined
  const how = directory
    ? "A file: its bytes in base64, or '@name' of a file in the server's upload directory."
    : 'A file: its bytes in base64.'
  const plan = prepared.plan.body
  const whole = plan?.kind === 'whole' ? properties?.[plan.argument] : undefined
  for (const file of files) {
    const property =
      whole === undefined
        ? properties?.[file]
        : file === ''
          ? whole
          : (whole.properties as Record<string, JsonSchema> | undefined)?.[file]
    if (property === undefined) continue
    property.description = typeof property.description === 'string' ? `${property.description} ${how}` : how
  }
}
