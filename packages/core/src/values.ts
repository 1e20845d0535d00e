// Narrowing of parsed JSON values, shared so that each package does not keep its own copy.

/** True for a non-null object that is not an array (a JSON object, as parsed). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
