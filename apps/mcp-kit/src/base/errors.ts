// Errors as the CLI sees them: any mcp-kit package error (branded), or the app's own usage errors.

const brand = Symbol.for('mcp-kit.error')

export interface KitError extends Error {
  code: string
  details?: Record<string, unknown>
}

/** True for an error from any mcp-kit package (profiles, schema, client, server, app). */
export function isKitError(value: unknown): value is KitError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true
}

/** The app's own error: bad flags, bad input files, a schema-change policy stop. */
export class CliError extends Error {
  readonly [brand] = true
  override readonly name = 'CliError'
  readonly code: string
  readonly details: Record<string, unknown> | undefined

  constructor(
    code: string,
    message: string,
    options: { details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.details = options.details
  }
}
