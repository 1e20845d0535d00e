// How big a document is once its `$ref`s are followed, counted before the dereferencer runs: it
// inlines a reference's target wherever no cycle can be reached from it (otherwise the `$ref`
// stays), and it walks what it inlined once per use. A few kilobytes of `$ref` fan-out (a
// component used ten times by one used ten times…) would spell out to billions of nodes and hang
// start-up in synchronous code no signal can interrupt, so the same count is made here first,
// once per shared object, and a document past the budget is refused.

import type { CycleVerdicts } from './local-references.js'
import { type ReadBudget, ReadRefused } from './read.js'

export type { CycleVerdicts }

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

/** Nodes one operation may spell out to (real documents stay far below; see the README). */
export const maximumOperationNodes = 500_000
/** Nodes the whole document may spell out to. */
export const maximumDocumentNodes = 10_000_000

type Node = Record<string, unknown> | unknown[]

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null
}

/** The target of an internal `$ref` (`#/a/b`), following references met on the way. */
function target(root: Node, ref: string, hops = 0): Node | undefined {
  if (!ref.startsWith('#')) return undefined
  let node: unknown = root
  const tokens = ref.length <= 2 ? [] : ref.slice(2).split('/')
  for (let index = 0; index <= tokens.length; ) {
    const inner = isNode(node) && !Array.isArray(node) ? node.$ref : undefined
    if (typeof inner === 'string' && inner !== ref && hops < 32) {
      node = target(root, inner, ++hops)
      continue
    }
    if (index === tokens.length) break
    const token = decodeURIComponent(tokens[index++] as string)
      .replace(/~1/g, '/')
      .replace(/~0/g, '~')
    node = isNode(node) ? (node as Record<string, unknown>)[token] : undefined
  }
  return isNode(node) ? node : undefined
}

// A node's count as one number: the nodes it spells out to (its inlined references spelled out,
// capped past the budget) times two, plus one when a cycle of references can be reached from it
// (then a `$ref` to it stays a `$ref`). One number per node keeps the pass light on memory.
const cap = maximumDocumentNodes + 1
const sizeOf = (count: number) => count >>> 1
const reachesCycle = (count: number) => (count & 1) === 1
// The count of a node still being walked (a node on the path; met again, it closes a cycle).
const walking = -1

interface Frame {
  node: Node
  next: unknown[]
  index: number
  ref: Node | undefined
  reaches: boolean
  size: number
}

/** The count of a node with no `$ref` and nothing but scalars below it, else undefined. */
function leafCount(node: Node): number | undefined {
  let size = 1
  if (Array.isArray(node)) {
    for (const item of node) {
      if (typeof item === 'object' && item !== null) return undefined
      size++
    }
    return size * 2
  }
  for (const key in node) {
    const value = node[key]
    if ((typeof value === 'object' && value !== null) || key === '$ref') return undefined
    size++
  }
  return size * 2
}

/**
 * Every node's count, in one depth-first pass: a node on the path being walked that is met again
 * closes a cycle, so it and everything open reach one; a finished node's count is final. Nodes
 * with only scalars below them are counted where they are met and not kept (nothing refers
 * into them that needs their count twice).
 */
function countAll(root: Node, budget: ReadBudget): Map<Node, number> {
  const counted = new Map<Node, number>()
  const targets = new Map<string, Node | undefined>()
  const stack: Frame[] = []
  const enter = (node: Node) => {
    if (counted.size % 65_536 === 0) budget.signal?.throwIfAborted()
    counted.set(node, walking)
    const next = Array.isArray(node) ? node.slice() : Object.values(node)
    const ref = Array.isArray(node) ? undefined : node.$ref
    let followed: Node | undefined
    if (typeof ref === 'string') {
      followed = targets.get(ref)
      if (followed === undefined && !targets.has(ref)) {
        followed = target(root, ref)
        targets.set(ref, followed)
      }
    }
    // The reference's target is walked last, so its count is known when the frame closes.
    if (followed !== undefined) next.push(followed)
    stack.push({ node, next, index: 0, ref: followed, reaches: false, size: 1 })
  }
  const add = (frame: Frame, child: unknown, count: number) => {
    const reaches = reachesCycle(count)
    if (reaches) frame.reaches = true
    if (!(reaches && child === frame.ref)) frame.size = Math.min(frame.size + sizeOf(count), cap)
  }
  enter(root)
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame
    if (frame.index < frame.next.length) {
      const child = frame.next[frame.index++]
      if (!isNode(child)) frame.size = Math.min(frame.size + 1, cap)
      else {
        const known = counted.get(child)
        if (known === walking) add(frame, child, 3)
        else if (known !== undefined) add(frame, child, known)
        else {
          const leaf = leafCount(child)
          if (leaf !== undefined) add(frame, child, leaf)
          else enter(child)
        }
      }
      continue
    }
    stack.pop()
    const count = frame.size * 2 + (frame.reaches ? 1 : 0)
    counted.set(frame.node, count)
    const parent = stack[stack.length - 1]
    if (parent !== undefined) add(parent, frame.node, count)
  }
  return counted
}

/**
 * Refuses a document that spells out past the budget once its references are followed; returns
 * which of its nodes reach a cycle.
 */
export function checkExpansion(
  root: Record<string, unknown>,
  named: string,
  budget: ReadBudget,
): CycleVerdicts {
  const counted = countAll(root, budget)
  const paths = isNode(root.paths) ? (root.paths as Record<string, unknown>) : {}
  for (const [path, item] of Object.entries(paths)) {
    if (!isNode(item)) continue
    for (const method of methods) {
      const operation = (item as Record<string, unknown>)[method]
      if (!isNode(operation) || sizeOf(counted.get(operation) ?? 0) <= maximumOperationNodes) continue
      throw new ReadRefused(
        `${named}: ${method.toUpperCase()} ${path} spells out to more than ${maximumOperationNodes} nodes once its $refs are followed (a $ref or alias fan-out?)`,
      )
    }
  }
  if (sizeOf(counted.get(root) ?? 0) > maximumDocumentNodes) {
    throw new ReadRefused(
      `${named} spells out to more than ${maximumDocumentNodes} nodes once its $refs are followed (a $ref or alias fan-out?)`,
    )
  }
  return (node) => {
    const count = counted.get(node as Node)
    return count === undefined ? undefined : reachesCycle(count)
  }
}
