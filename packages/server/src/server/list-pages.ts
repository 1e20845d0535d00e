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

// JSON sizes in bytes, remembered per frozen object: a listed item's, and those of the schemas in
// it, so that a schema many tools share (an OpenAPI component) is measured once, not per tool.
const sizes = new WeakMap<object, number>()

function stringBytes(text: string): number {
  // Most text is ASCII without characters JSON escapes: then its JSON is its length plus quotes.
  return /^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/.test(text)
    ? text.length + 2
    : Buffer.byteLength(JSON.stringify(text))
}

/** The bytes of `JSON.stringify(value)`, from the sizes of its parts. */
export function jsonBytes(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return stringBytes(value)
    case 'number':
    case 'boolean':
      return String(JSON.stringify(value)).length
    case 'object': {
      if (value === null) return 4
      const known = sizes.get(value)
      if (known !== undefined) return known
      let size = 2
      let count = 0
      if (Array.isArray(value)) {
        for (const item of value) {
          const skipped = item === undefined || typeof item === 'function' || typeof item === 'symbol'
          size += skipped ? 4 : jsonBytes(item)
          count += 1
        }
      } else if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
        size = Buffer.byteLength(JSON.stringify(value))
      } else {
        for (const [key, item] of Object.entries(value)) {
          if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue
          size += stringBytes(key) + 1 + jsonBytes(item)
          count += 1
        }
      }
      size += Math.max(0, count - 1)
      if (Object.isFrozen(value)) sizes.set(value, size)
      return size
    }
    default:
      return 0
  }
}

// Each list's position of every key, for continuing after a cursor.
const positions = new WeakMap<readonly object[], Map<string, number>>()

/** A listed item's size, remembered: the runtime keeps a list's items until it changes. */
function sizeOf(item: object): number {
  let size = sizes.get(item)
  if (size === undefined) {
    size = jsonBytes(item) + 1
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
