// The code and message of the ProfileError a function throws, as one string tests can match.
import { ProfileError } from '../../src/index.js'

export function codeOf(run: () => unknown): string {
  try {
    run()
  } catch (error) {
    if (ProfileError.isInstance(error)) return `${error.code}: ${error.message}`
    throw error
  }
  throw new Error('expected a ProfileError')
}
