// What a tool's method promises (MCP tool annotations): GET, HEAD and OPTIONS only read; PUT and
// DELETE may be repeated with the same effect; DELETE destroys. Every tool reaches outside the
// server (an API), so none is a closed world.

import type { Operation } from './operations.js'

export interface Annotations {
  title?: string
  readOnlyHint: boolean
  destructiveHint?: boolean
  idempotentHint?: boolean
  openWorldHint: boolean
}

export function annotationsOf(operation: Operation): Annotations {
  const title = operation.summary === undefined ? {} : { title: operation.summary }
  switch (operation.method) {
    case 'GET':
    case 'HEAD':
    case 'OPTIONS':
      return { ...title, readOnlyHint: true, idempotentHint: true, openWorldHint: true }
    case 'PUT':
      return {
        ...title,
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: true,
      }
    case 'DELETE':
      return {
        ...title,
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: true,
      }
    default:
      return {
        ...title,
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      }
  }
}
