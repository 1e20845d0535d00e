// The `Mcp-Name` rule of 2026-07-28 Streamable HTTP (SEP-2243): the methods whose target travels
// in the header, and the param it mirrors (SEP-2663 adds the task methods' `taskId`).

/** The param `Mcp-Name` mirrors: a tool or prompt name, a resource URI or a task id. */
export type NamedField = 'name' | 'uri' | 'taskId'

/** Methods whose target travels in `Mcp-Name`, and the param that names it. */
export const mcpNameFields: Readonly<Record<string, NamedField>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
}

/** The param `Mcp-Name` mirrors for `method`, or undefined when the method has no `Mcp-Name`. */
export function mcpNameField(method: string): NamedField | undefined {
  return Object.hasOwn(mcpNameFields, method) ? mcpNameFields[method] : undefined
}
