// `$ref`s inside the document itself (`#/components/...`), resolved in one pass: each is replaced
// by the object it points to — the same object wherever it is used, never a copy — and one whose
// target leads into a cycle (a recursive schema, or one that uses one) is left as it is. This is what
// @readme/openapi-parser's dereference does with `circular: 'ignore'`, without its start-up and
// time (a large API's document is read several times faster). A document that refers to other
// files or URLs goes to the parser instead.

type Json = Record<string, unknown> | unknown[]

/**
 * What the count found, for the dereferencer: whether a cycle of references can be reached from
 * a node of the document as it was counted (a `$ref` to such a target stays a `$ref`); undefined
 * for a node it did not count (one made since, or a `$ref`-less leaf).
 */
export type CycleVerdicts = (node: object) => boolean | undefined

function isNode(value: unknown): value is Json {
  return typeof value === 'object' && value !== null
}

function referenceOf(value: unknown): string | undefined {
  if (!isNode(value) || Array.isArray(value)) return undefined
  const reference = (value as Record<string, unknown>).$ref
  return typeof reference === 'string' ? reference : undefined
}

// Documents parsed from a JSON text that showed no other `$ref` (read.ts): no walk needed.
const knownLocal = new WeakSet<object>()

/** Remembers that `document`, parsed from JSON `text`, has only local `$ref`s when the text says so. */
export function noteLocalReferences(document: object, text: string): void {
  if (!/"\$ref"\s*:\s*"(?!#)/.test(text) && !text.includes('\\u0024')) knownLocal.add(document)
}

/** True for a document (an object) whose every `$ref` is local (`#…`); a walk without recursion. */
export function hasOnlyLocalReferences(document: unknown): document is Record<string, unknown> {
  if (!isNode(document) || Array.isArray(document)) return false
  if (knownLocal.has(document)) return true
  const stack: unknown[] = [document]
  const seen = new Set<object>()
  while (stack.length > 0) {
    const node = stack.pop()
    if (!isNode(node) || seen.has(node)) continue
    seen.add(node)
    const reference = referenceOf(node)
    if (reference !== undefined && !reference.startsWith('#')) return false
    for (const value of Array.isArray(node) ? node : Object.values(node)) {
      if (isNode(value)) stack.push(value)
    }
  }
  return true
}

function refuse(message: string): never {
  throw new Error(message)
}

/** What a local JSON pointer (`#/components/schemas/Pet`) points to in `root`. */
function pointee(root: unknown, reference: string, hops = 0): unknown {
  if (reference === '#') return root
  if (!reference.startsWith('#/')) refuse(`$ref ${JSON.stringify(reference)} is not a JSON pointer`)
  let target: unknown = root
  for (const encoded of reference.slice(2).split('/')) {
    // A pointer that goes on through a `$ref` goes on in what it points to.
    const through = referenceOf(target)
    if (through !== undefined) {
      if (hops > 64) refuse(`$ref ${JSON.stringify(reference)} goes round in circles`)
      target = pointee(root, through, hops + 1)
    }
    let token: string
    try {
      token = decodeURIComponent(encoded).replaceAll('~1', '/').replaceAll('~0', '~')
    } catch {
      refuse(`$ref ${JSON.stringify(reference)} is not a JSON pointer`)
    }
    if (!isNode(target) || !Object.hasOwn(target, token)) {
      refuse(`$ref ${JSON.stringify(reference)} points to nothing in the document`)
    }
    target = (target as Record<string, unknown>)[token]
  }
  return target
}

/** Values under the same key merge, the `$ref`'s own over the target's (as the parser merges). */
function merged(siblings: Record<string, unknown>, target: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = { ...siblings }
  for (const [key, value] of Object.entries(target)) {
    const own = result[key]
    if (!Object.hasOwn(result, key)) result[key] = value
    else if (isNode(own) && !Array.isArray(own) && isNode(value) && !Array.isArray(value)) {
      result[key] = merged(own as Record<string, unknown>, value as Record<string, unknown>)
    }
  }
  return result
}

/**
 * Replaces the document's local `$ref`s in place (see above) and returns it. As the parser does
 * with `circular: 'ignore'`, a `$ref` whose target reaches a cycle (a recursive schema, or one
 * that uses one) is left as it is, everywhere: inlining it would make a document whose JSON
 * grows without bound. A `$ref` beside other keywords (OpenAPI 3.1) becomes a new object: those
 * keywords, then the target's.
 */
export function dereferenceLocal<T extends Json>(document: T, cycles?: CycleVerdicts): T {
  // The same few hundred $refs are written thousands of times: each is resolved once.
  const resolved = new Map<string, unknown>()
  const resolve = (reference: string): unknown => {
    if (resolved.has(reference)) return resolved.get(reference)
    const target = follow(reference)
    resolved.set(reference, target)
    return target
  }
  const follow = (reference: string): unknown => {
    const chain = new Set<string>()
    let target = pointee(document, reference)
    for (let next = referenceOf(target); next !== undefined; next = referenceOf(target)) {
      if (chain.has(next) || chain.size > 64) return undefined
      chain.add(next)
      target = pointee(document, next)
    }
    return target
  }

  // Which $refs lead into a cycle, worked out on the graph of $refs alone (a JSON tree has no
  // cycle but through them): each target's subtree is read once for the $refs in it, as written.
  const below = new Map<string, string[] | null>()
  const refsBelow = (root: unknown): string[] => {
    const found: string[] = []
    const stack: Array<[unknown, number]> = [[root, 0]]
    while (stack.length > 0) {
      const [value, depth] = stack.pop() as [unknown, number]
      if (!isNode(value)) continue
      if (depth > 1000) refuse('it nests more than 1000 levels deep')
      const reference = referenceOf(value)
      if (reference !== undefined) found.push(reference)
      for (const key in value) {
        if (key === '$ref' && reference !== undefined) continue
        const item = (value as Record<string, unknown>)[key]
        if (isNode(item)) stack.push([item, depth + 1])
      }
    }
    return found
  }
  const edgesOf = (reference: string): string[] | null => {
    let edges = below.get(reference)
    if (edges === undefined) {
      const target = resolve(reference)
      edges = target === undefined ? null : isNode(target) ? refsBelow(target) : []
      below.set(reference, edges)
    }
    return edges
  }
  const cyclic = new Map<string, boolean>()
  const active = new Set<string>()
  const leadsIntoCycle = (reference: string): boolean => {
    const known = cyclic.get(reference)
    if (known !== undefined) return known
    if (active.has(reference)) return true
    const edges = edgesOf(reference)
    if (edges === null) return true
    active.add(reference)
    let cycle = false
    for (const next of edges) if (leadsIntoCycle(next)) cycle = true
    active.delete(reference)
    cyclic.set(reference, cycle)
    return cycle
  }

  const done = new WeakSet<object>()
  const replace = (node: Json): void => {
    if (done.has(node)) return
    done.add(node)
    const keys = Array.isArray(node) ? node.keys() : Object.keys(node)
    for (const key of keys) {
      const value = (node as Record<string | number, unknown>)[key]
      if (!isNode(value)) continue
      const reference = referenceOf(value)
      if (reference === undefined) {
        replace(value)
        continue
      }
      const target = resolve(reference)
      if (target === undefined) continue
      if (!isNode(target)) {
        if (Object.keys(value).length === 1) (node as Record<string | number, unknown>)[key] = target
        continue
      }
      const withSiblings = Object.keys(value).length > 1
      const known = cycles?.(value)
      if (known === true) continue
      if (known === undefined) {
        if (leadsIntoCycle(reference)) continue
        if (withSiblings && refsBelow({ ...value, $ref: undefined }).some(leadsIntoCycle)) continue
      }
      replace(target)
      if (!withSiblings || Array.isArray(target)) {
        ;(node as Record<string | number, unknown>)[key] = target
      } else {
        const siblings = Object.fromEntries(Object.entries(value).filter(([name]) => name !== '$ref'))
        const combined = merged(siblings, target as Record<string, unknown>)
        ;(node as Record<string | number, unknown>)[key] = combined
        replace(combined)
      }
    }
  }

  // Every $ref's verdict before any is replaced, so that each target is read as written (the
  // expansion count has them already, for every $ref node of the document as written).
  if (cycles === undefined) for (const reference of refsBelow(document)) leadsIntoCycle(reference)
  replace(document)
  return document
}

/** `dereference` of @readme/openapi-parser's shape, for a document with only local `$ref`s. */
export function localDereferencer(
  document: Record<string, unknown>,
  cycles?: CycleVerdicts,
): {
  dereference: (api: never, options: unknown) => Promise<Record<string, unknown>>
} {
  return { dereference: async () => dereferenceLocal(document, cycles) }
}
