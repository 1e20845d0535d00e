// Where in the file a value is: the server.json text parsed with positions (jsonc-parser), so a
// problem found at `/packages/0/version` is reported at its line and column. Syntax errors are
// problems of their own, at the place the parser stopped.

import { findNodeAtLocation, type Node, type ParseError, parseTree, printParseErrorCode } from 'jsonc-parser'

export interface Position {
  line: number
  column: number
}

export interface ParsedDocument {
  tree: Node | undefined
  value: unknown
  syntaxErrors: Array<Position & { message: string }>
  positionOf(path: ReadonlyArray<string | number>): Position
}

/** A JSON pointer (`/packages/0/version`) as path segments. */
export function pointerSegments(pointer: string): Array<string | number> {
  if (pointer === '') return []
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^(?:0|[1-9][0-9]*)$/.test(segment) ? Number(segment) : segment))
}

export function parseDocument(text: string): ParsedDocument {
  const lineStarts = [0]
  for (let index = 0; index < text.length; index++) if (text[index] === '\n') lineStarts.push(index + 1)
  const at = (offset: number): Position => {
    let low = 0
    let high = lineStarts.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if ((lineStarts[middle] as number) <= offset) low = middle
      else high = middle - 1
    }
    return { line: low + 1, column: offset - (lineStarts[low] as number) + 1 }
  }
  const errors: ParseError[] = []
  const tree = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false })
  const syntaxErrors = errors.map((error) => ({
    ...at(error.offset),
    message: printParseErrorCode(error.error),
  }))
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    value = undefined
  }
  return {
    tree,
    value,
    syntaxErrors,
    positionOf(path) {
      if (tree === undefined) return { line: 1, column: 1 }
      // The deepest node that exists: a missing property is reported at its parent object.
      for (let length = path.length; length >= 0; length--) {
        const node = findNodeAtLocation(tree, path.slice(0, length) as Array<string | number>)
        if (node === undefined) continue
        // A property's value: point at its key, where people look for it.
        const property = node.parent?.type === 'property' ? node.parent : undefined
        return at(property?.offset ?? node.offset)
      }
      return { line: 1, column: 1 }
    },
  }
}
