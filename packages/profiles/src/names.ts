// Profile and tool names become path components, so they are checked before any path is built.

import { ProfileError } from './errors.js'

const namePattern = /^[A-Za-z0-9][A-Za-z0-9._-]*$/

/** True when `name` may be used as a profile or tool name (and therefore as a file name). */
export function isValidName(name: string): boolean {
  return namePattern.test(name) && name.length <= 200
}

/**
 * Throws `invalid_reference` unless `name` is a safe profile or tool name. Names are checked after
 * percent-decoding, so `%2F` and `%2E%2E` are refused like `/` and `..`.
 */
export function assertValidName(name: string, what: 'profile' | 'tool'): void {
  if (isValidName(name)) return
  let reason: string
  if (name === '') reason = 'it is empty'
  else if (name.includes('\0')) reason = 'it contains a NUL character'
  else if (name.includes('/') || name.includes('\\')) reason = 'it contains a path separator'
  else if (name.startsWith('.')) reason = "it starts with '.'"
  else if (name.length > 200) reason = 'it is longer than 200 characters'
  else reason = 'only letters, digits, ".", "_" and "-" are allowed, starting with a letter or digit'
  throw new ProfileError('invalid_reference', `invalid ${what} name ${JSON.stringify(name)}: ${reason}`, {
    details: { name, what },
  })
}
