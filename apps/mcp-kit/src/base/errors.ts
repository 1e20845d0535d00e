// Errors as the CLI sees them: any mcp-kit package error (branded), or the app's own usage errors.

import { isKitError, KitError } from '@mcp-kit/core'

export { isKitError, KitError }

/** The app's own error: bad flags, bad input files, a schema-change policy stop. */
export class CliError extends KitError {
  override readonly name = 'CliError'
}
