// Tool names: the operationId made to fit what MCP clients accept (letters, digits, `_` and `-`,
// at most 64 characters; longer ones shortened with a hash of the full name), or the method and
// path (`get_pets_petId`) for an operation without one. Names two operations would share get
// `_2`, `_3`… in document order.

import { createHash } from 'node:crypto'
import type { Operation } from './operations.js'

export const maximumToolNameLength = 64

function fit(name: string): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/_{2,}/g, '_')
    .replace(/^_+|_+$/g, '')
  const safe = cleaned === '' ? 'operation' : cleaned
  if (safe.length <= maximumToolNameLength) return safe
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8)
  return `${safe.slice(0, maximumToolNameLength - hash.length - 1)}_${hash}`
}

export function baseToolName(operation: Operation): string {
  if (operation.operationId !== undefined && operation.operationId.trim() !== '') {
    return fit(operation.operationId)
  }
  const words = operation.path
    .split('/')
    .map((segment) => segment.replace(/[{}]/g, ''))
    .filter((segment) => segment !== '')
  return fit([operation.method.toLowerCase(), ...words].join('_'))
}

/** One name per operation, unique, in the operations' order. */
export function toolNames(operations: readonly Operation[]): string[] {
  const taken = new Set<string>()
  return operations.map((operation) => {
    const base = baseToolName(operation)
    let name = base
    for (let index = 2; taken.has(name); index++) {
      const suffix = `_${index}`
      name = `${base.slice(0, maximumToolNameLength - suffix.length)}${suffix}`
    }
    taken.add(name)
    return name
  })
}
