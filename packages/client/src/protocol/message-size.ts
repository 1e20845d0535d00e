// The size limit on one message from a server: stdio lines, HTTP bodies and SSE events go over the same
// `maxMessageBytes` with the same error.

import { ClientError } from '../errors.js'

/** protocol_error for a message over the limit, the same for every transport. */
export function messageTooLarge(limit: number, bytes: number): ClientError {
  return new ClientError(
    'protocol_error',
    `a message from the server is larger than the ${formatBytes(limit)} limit (at least ${formatBytes(bytes)}); raise it with maxMessageBytes`,
    { details: { limit, bytes } },
  )
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KiB`
  return `${bytes} bytes`
}
