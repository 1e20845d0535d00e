// The one error type of @mcp-kit/profiles. Codes are stable strings shared with the rest of
// mcp-kit (see docs/architecture.md "Errors"); the CLI maps them to exit codes.

const brand = Symbol.for('mcp-kit.error')

export type ProfileErrorCode =
  | 'invalid_reference'
  | 'profile_not_found'
  | 'profile_invalid'
  | 'missing_env'
  | 'missing_secret'
  | 'missing_input'
  | 'invalid_input'

export interface ProfileErrorOptions {
  details?: Record<string, unknown>
  cause?: unknown
}

/** The one error this package throws: a stable `code`, a one-line message and `details`. */
export class ProfileError extends Error {
  readonly [brand] = true
  override readonly name = 'ProfileError'
  readonly code: ProfileErrorCode
  readonly details: Record<string, unknown> | undefined

  constructor(code: ProfileErrorCode, message: string, options: ProfileErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.details = options.details
  }

  /** True for a ProfileError from any copy of this package (bundlers may load two). */
  static isInstance(value: unknown): value is ProfileError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[brand] === true &&
      (value as Error).name === 'ProfileError'
    )
  }
}
