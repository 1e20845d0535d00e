// Reading a document, or a file it refers to, within one budget for the whole load: bytes counted
// as they stream (a chunked answer or a growing file stops at the limit, whatever Content-Length
// said), one deadline, the caller's abort signal; JSON or YAML parsed with few aliases (a YAML
// alias bomb is refused) and nested no deeper than real documents are.

import { open } from 'node:fs/promises'
import { networkReason } from '../errors.js'
import { noteLocalReferences } from './local-references.js'

/** What one load may still spend, shared by every file and answer it reads. */
export interface ReadBudget {
  /** Bytes left for everything still to read. */
  bytesLeft: number
  readonly maxBytes: number
  /** When the load must be done, in ms since the epoch, and how long that was. */
  readonly deadline: number
  readonly maximumMs: number
  /** How long one fetch may take, in ms. */
  readonly fetchTimeoutMs: number
  readonly signal: AbortSignal | undefined
}

/** A reason to stop reading, in words (a budget exceeded, a reference refused). */
export class ReadRefused extends Error {
  override readonly name = 'ReadRefused'
  constructor(
    message: string,
    readonly unreachable = false,
  ) {
    super(message)
  }
}

// YAML aliases a document may use, counted the way the yaml package counts them (an alias to a
// large node counts as that many): real documents use a few; a bomb needs thousands.
const maximumAliasCount = 100
// Deeper than any real document nests.
export const maximumNesting = 256

export function checkTime(budget: ReadBudget, doing: string): void {
  budget.signal?.throwIfAborted()
  if (Date.now() > budget.deadline) {
    throw new ReadRefused(`${doing} took longer than the ${Math.round(budget.maximumMs / 1000)} s allowed`)
  }
}

function take(budget: ReadBudget, bytes: number, what: string): void {
  budget.bytesLeft -= bytes
  if (budget.bytesLeft < 0) {
    throw new ReadRefused(`${what} is larger than the ${budget.maxBytes} bytes a document may have`)
  }
}

/** A local file's text, read no further than the budget allows. */
export async function readFileText(path: string, budget: ReadBudget): Promise<string> {
  const handle = await open(path, 'r')
  try {
    const stat = await handle.stat()
    if (!stat.isFile()) throw new ReadRefused(`${path} is not a file`)
    // Into one buffer of the size the file says; a file that grows meanwhile is read on, in
    // chunks, what it adds counted against the budget as it comes.
    take(budget, stat.size, path)
    let counted = stat.size
    let total = 0
    const chunks: Buffer[] = []
    let buffer = Buffer.allocUnsafe(Math.max(stat.size + 1, 1 << 16))
    let filled = 0
    for (;;) {
      if (filled === buffer.length) {
        chunks.push(buffer)
        buffer = Buffer.allocUnsafe(1 << 20)
        filled = 0
      }
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, null)
      if (bytesRead === 0) break
      filled += bytesRead
      total += bytesRead
      if (total > counted) {
        take(budget, total - counted, path)
        counted = total
      }
      budget.signal?.throwIfAborted()
    }
    chunks.push(buffer.subarray(0, filled))
    return (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)).toString('utf8')
  } finally {
    await handle.close()
  }
}

/** The text at an http(s) URL, streamed within the budget; redirects followed only when `follow`. */
export async function fetchText(url: string, budget: ReadBudget, follow: boolean): Promise<string> {
  checkTime(budget, `reading ${url}`)
  const timeoutMs = Math.max(1, Math.min(budget.fetchTimeoutMs, budget.deadline - Date.now()))
  const timeout = AbortSignal.timeout(timeoutMs)
  const signal = budget.signal === undefined ? timeout : AbortSignal.any([timeout, budget.signal])
  try {
    const response = await fetch(url, {
      headers: { accept: 'application/json, application/yaml;q=0.9, */*;q=0.5' },
      redirect: follow ? 'follow' : 'error',
      signal,
    })
    if (!response.ok || response.body === null) {
      await response.body?.cancel()
      throw new ReadRefused(
        `cannot fetch ${url}: HTTP ${response.status} ${response.statusText}`.trim(),
        true,
      )
    }
    const declared = Number(response.headers.get('content-length') ?? 0)
    if (declared > budget.bytesLeft) {
      await response.body.cancel()
      take(budget, declared, url)
    }
    const reader = response.body.getReader()
    const chunks: Uint8Array[] = []
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      try {
        take(budget, value.byteLength, url)
      } catch (error) {
        await reader.cancel()
        throw error
      }
      chunks.push(value)
    }
    return Buffer.concat(chunks).toString('utf8')
  } catch (error) {
    if (error instanceof ReadRefused) throw error
    if (budget.signal?.aborted) throw budget.signal.reason
    const cause = (error as { cause?: unknown }).cause
    const reason = timeout.aborted
      ? `no answer within ${timeoutMs / 1000} s`
      : networkReason(cause instanceof Error ? cause : error)
    throw new ReadRefused(`cannot fetch ${url}: ${reason}`, true)
  }
}

/** The value of a JSON or YAML text, refused when it aliases too much or nests too deep. */
export async function parseText(text: string, named: string): Promise<unknown> {
  let value: unknown
  const json = /^\s*[{[]/.test(text)
  try {
    // yaml loads only for YAML: it is a large module.
    value = json
      ? JSON.parse(text)
      : (await import('yaml')).parse(text, { maxAliasCount: maximumAliasCount, prettyErrors: false })
  } catch (error) {
    const message = (error as Error).message ?? String(error)
    if (/alias/i.test(message)) {
      throw new ReadRefused(
        `${named} uses YAML aliases more than ${maximumAliasCount} times over (an alias bomb?)`,
      )
    }
    if (error instanceof RangeError)
      throw new ReadRefused(`${named} nests deeper than ${maximumNesting} levels`)
    throw new ReadRefused(`${named} is neither JSON nor YAML: ${message.split('\n')[0]}`)
  }
  checkNesting(value, named)
  if (json && typeof value === 'object' && value !== null) noteLocalReferences(value, text)
  return value
}

function checkNesting(value: unknown, named: string): void {
  // Two stacks side by side (no pair per node), and leaves never pushed.
  const nodes: object[] = []
  const depths: number[] = []
  if (typeof value === 'object' && value !== null) {
    nodes.push(value)
    depths.push(0)
  }
  while (nodes.length > 0) {
    const node = nodes.pop() as Record<string, unknown>
    const depth = (depths.pop() as number) + 1
    for (const key in node) {
      const child = node[key]
      if (typeof child !== 'object' || child === null) continue
      if (depth >= maximumNesting)
        throw new ReadRefused(`${named} nests deeper than ${maximumNesting} levels`)
      nodes.push(child)
      depths.push(depth)
    }
  }
}
