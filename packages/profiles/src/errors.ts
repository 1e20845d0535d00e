// The one error type of @mcp-kit/profiles. Codes are stable strings shared with the rest of
// mcp-kit (see docs/architecture.md "Errors"); the CLI maps them to exit codes.

import { isKitError, KitError } from '@mcp-kit/core'

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
export class ProfileError extends KitError<ProfileErrorCode> {
  override readonly name = 'ProfileError'

  constructor(code: ProfileErrorCode, message: string, options: ProfileErrorOptions = {}) {
    super(code, message, options)
  }

  /** True for a ProfileError from any copy of this package (bundlers may load two). */
  static isInstance(value: unknown): value is ProfileError {
    return isKitError(value, 'ProfileError')
  }
}
