// A collection's text as a YAML document with positions: YAML and JSON alike go through the
// `yaml` package (JSON is YAML), whose nodes keep their offsets, so a problem found at
// `steps[2].expect` is reported at its line and column. The Document is kept for writing back:
// edits to it keep the file's comments and layout.

import { type Document, isMap, isPair, isScalar, LineCounter, parseDocument as parseYaml } from 'yaml'

export interface Position {
  line: number
  column: number
}

export type PathSegment = string | number

export interface ParsedText {
  document: Document
  /** The plain value (undefined when the text has syntax errors). */
  value: unknown
  syntaxErrors: Array<Position & { message: string }>
  /** Where the value at `path` is; the deepest existing node for a path that goes past the tree. */
  positionOf(path: readonly PathSegment[], key?: string): Position
}

/** Options that keep the value as written: no aliases expanded into copies, unique keys, YAML 1.2. */
export const documentOptions = {
  version: '1.2',
  uniqueKeys: true,
  prettyErrors: false,
  keepSourceTokens: false,
} as const

export function parseText(text: string): ParsedText {
  const lineCounter = new LineCounter()
  const document = parseYaml(text, { ...documentOptions, lineCounter })
  const at = (offset: number): Position => {
    const { line, col } = lineCounter.linePos(offset)
    return { line, column: col }
  }
  const syntaxErrors = document.errors.map((error) => ({
    ...at(error.pos[0]),
    // yaml words the place into its message; the caller prints the place itself.
    message: error.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '') ?? error.code,
  }))
  let value: unknown
  if (syntaxErrors.length === 0) {
    try {
      value = document.toJS({ maxAliasCount: 100 })
    } catch (error) {
      syntaxErrors.push({ line: 1, column: 1, message: (error as Error).message })
    }
  }
  return {
    document,
    value,
    syntaxErrors,
    positionOf(path, key) {
      let node: unknown = document.contents
      for (const segment of path) {
        const next = (node as { get?: (key: unknown, keepScalar: boolean) => unknown })?.get?.(segment, true)
        if (next === undefined || next === null) break
        node = next
      }
      if (key !== undefined && isMap(node)) {
        const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && item.key.value === key)
        const keyNode = pair?.key as { range?: [number, number, number] } | undefined
        if (keyNode?.range) return at(keyNode.range[0])
      }
      const range = (node as { range?: [number, number, number] } | null)?.range
      return range ? at(range[0]) : { line: 1, column: 1 }
    },
  }
}
