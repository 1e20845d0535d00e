// Lists answered a page at a time (spec: server/utilities/pagination), so that no answer grows with
// the registry: a page holds items up to `listPageBytes` of JSON, at least one. The cursor is
// opaque to clients and carries no state of ours: it names the list and the last item sent, so any
// instance with the same registry continues it, and a list that changed between pages goes on
// after that item. A cursor that is not ours, or names an item no longer listed, is -32602.

import { invalidParams } from '../protocol/rpc.js'

/** The JSON of one page's items stays under this many bytes (unless one item alone is larger). */
export const listPageBytes = 512 * 1024

export type ListKind = 'tools' | 'resources' | 'resourceTemplates' | 'prompts'

const maximumCursorLength = 4096

// Each listed item's JSON size, measured once: the runtime keeps a list's items until it changes.
const sizes = new WeakMap<object, number>()
// Each list's position of every key, for continuing after a cursor.
const positions = new WeakMap<readonly object[], Map<string, number>>()

function sizeOf(item: object): number {
  let size = sizes.get(item)
  if (size === undefined) {
    size = Buffer.byteLength(JSON.stringify(item)) + 1
    sizes.set(item, size)
  }
  return size
}

function cursorOf(list: ListKind, key: string): string {
  return Buffer.from(JSON.stringify([list, key])).toString('base64url')
}

/** The key the cursor continues after; -32602 unless it is a cursor of this list. */
function keyOf(list: ListKind, cursor: string): string {
  const invalid = () => invalidParams(`'cursor' is not a cursor of ${list} this server gave`)
  if (cursor.length > maximumCursorLength || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid()
  let decoded: unknown
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    throw invalid()
  }
  if (
    !Array.isArray(decoded) ||
    decoded.length !== 2 ||
    decoded[0] !== list ||
    typeof decoded[1] !== 'string'
  ) {
    throw invalid()
  }
  return decoded[1]
}

/**
 * The page of `items` that `cursor` asks for (the first without one), and the cursor of the next
 * page when there is one. `key` names an item (a tool's name, a resource's URI).
 */
export function listPage<T extends object>(
  list: ListKind,
  items: readonly T[],
  key: (item: T) => string,
  cursor: string | undefined,
  budget = listPageBytes,
): { items: readonly T[]; nextCursor: string | undefined } {
  let start = 0
  if (cursor !== undefined) {
    const after = keyOf(list, cursor)
    let index = positions.get(items)
    if (index === undefined) {
      index = new Map(items.map((item, position) => [key(item), position]))
      positions.set(items, index)
    }
    const position = index.get(after)
    if (position === undefined) {
      throw invalidParams(
        `'cursor' continues after ${JSON.stringify(after)}, which is no longer listed: list from the start`,
      )
    }
    start = position + 1
  }
  let end = start
  let bytes = 0
  while (end < items.length) {
    bytes += sizeOf(items[end] as T)
    if (bytes > budget && end > start) break
    end += 1
  }
  const page = start === 0 && end === items.length ? items : items.slice(start, end)
  const last = items[end - 1]
  return {
    items: page,
    nextCursor: end < items.length && last !== undefined ? cursorOf(list, key(last)) : undefined,
  }
}
