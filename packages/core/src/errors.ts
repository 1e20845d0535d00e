// The base of every mcp-kit package's error: a stable string `code`, `details`, and a brand that
// any copy of any mcp-kit package recognises (bundlers may load two), where `instanceof` cannot.

const brand = Symbol.for('mcp-kit.error')

export interface KitErrorOptions {
  details?: Record<string, unknown> | undefined
  cause?: unknown
}

/** An error of an mcp-kit package: each package's own error class extends it with its codes. */
export class KitError<Code extends string = string> extends Error {
  readonly [brand] = true
  readonly code: Code
  readonly details: Record<string, unknown> | undefined

  constructor(code: Code, message: string, options: KitErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.details = options.details
  }
}

/** True for an error of any mcp-kit package (and any copy of it); with `name`, of that class only. */
export function isKitError(value: unknown, name?: string): value is KitError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[brand] === true &&
    (name === undefined || (value as Error).name === name)
  )
}
