// The launch_failed error of a stdio server that could not be started, in words a person can act
// on: a working directory that does not exist, a command that is not found, permission denied.

import { existsSync } from 'node:fs'
import { ClientError } from '../errors.js'

export function launchError(error: unknown, command: string, cwd: string | undefined): ClientError {
  const code = (error as NodeJS.ErrnoException).code
  let message = `cannot launch '${command}': ${(error as Error).message}`
  if (code === 'ENOENT') {
    message =
      cwd !== undefined && !existsSync(cwd)
        ? `cannot launch '${command}': the working directory ${cwd} does not exist`
        : `cannot launch '${command}': command not found`
  } else if (code === 'EACCES') message = `cannot launch '${command}': permission denied`
  return new ClientError('launch_failed', message, { details: { command, errno: code }, cause: error })
}
