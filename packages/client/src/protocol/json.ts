// JSON as a server sends it: nothing is trusted to have the shape the protocol gives it, so every
// reader of a message checks before it looks inside.

/** A JSON object: not null, not an array. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
