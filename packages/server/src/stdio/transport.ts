// The server side of stdio: newline-delimited JSON-RPC in on stdin, out on stdout. Ours rather
// than the SDK's StdioServerTransport for two reasons: the SDK's checks every line with zod
// (measurable under `put`, tooling/bench) and drops what fails without an answer, which leaves
// a client waiting; this one answers unparseable lines with -32700 and malformed requests
// with -32600, checking the envelope by hand.

import type { Readable, Writable } from 'node:stream'
import type { RpcMessage } from '../protocol/rpc.js'
import type { MessageTransport } from '../server/protocol-server.js'

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isId(value: unknown): value is string | number {
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value))
}

/** Why a parsed value is not a JSON-RPC 2.0 message, or undefined when it is one. */
export function envelopeProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'a message must be a JSON object'
  if (value.jsonrpc !== '2.0') return '\'jsonrpc\' must be "2.0"'
  if ('method' in value) {
    if (typeof value.method !== 'string') return "'method' must be a string"
    if ('id' in value && !isId(value.id)) return "'id' must be a string or an integer"
    if ('params' in value && value.params !== undefined && !isObject(value.params))
      return "'params' must be an object"
    return undefined
  }
  if (!isId(value.id)) return "a response needs an 'id'"
  if ('result' in value === 'error' in value) return "a response has either 'result' or 'error'"
  if ('result' in value && !isObject(value.result)) return "'result' must be an object"
  if ('error' in value && !isObject(value.error)) return "'error' must be an object"
  return undefined
}

export class StdioLineTransport implements MessageTransport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: RpcMessage) => void

  readonly #input: Readable
  readonly #output: Writable
  #partial: string[] = []
  #closed = false

  constructor(input: Readable, output: Writable) {
    this.#input = input
    this.#output = output
  }

  async start(): Promise<void> {
    this.#input.setEncoding('utf8')
    this.#input.on('data', this.#onData)
    this.#input.on('error', this.#onError)
  }

  send(message: RpcMessage): Promise<void> {
    if (this.#output.write(`${JSON.stringify(message)}\n`)) return Promise.resolve()
    return new Promise((resolve) => this.#output.once('drain', resolve))
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    this.#input.off('data', this.#onData)
    this.#input.off('error', this.#onError)
    // Stop reading, unless something else still consumes the stream.
    if (this.#input.listenerCount('data') === 0) this.#input.pause()
    this.onclose?.()
  }

  readonly #onError = (error: Error) => this.onerror?.(error)

  // A line's pieces wait in #partial until its newline comes; only the new chunk is searched, so
  // a line arriving in many chunks costs its length once (re-splitting the whole partial line on
  // every chunk made a 16 MB line take seconds: tooling/fuzz).
  readonly #onData = (chunk: string) => {
    let start = 0
    let newline = chunk.indexOf('\n')
    while (newline !== -1) {
      const piece = chunk.slice(start, newline)
      let line = piece
      if (this.#partial.length > 0) {
        this.#partial.push(piece)
        line = this.#partial.join('')
        this.#partial = []
      }
      this.#onLine(line.endsWith('\r') ? line.slice(0, -1) : line)
      start = newline + 1
      newline = chunk.indexOf('\n', start)
    }
    if (start < chunk.length) this.#partial.push(chunk.slice(start))
  }

  #onLine(line: string): void {
    if (line.trim() === '') return
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      void this.send({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'Parse error: a line is not JSON' },
      } as never)
      return
    }
    const problem = envelopeProblem(value)
    if (problem === undefined) {
      this.onmessage?.(value as RpcMessage)
      return
    }
    const id = isObject(value) && isId(value.id) && 'method' in value ? value.id : null
    // A malformed response or notification has no one to answer; a request is told what was wrong.
    if (id !== null || !isObject(value) || !('method' in value)) {
      void this.send({
        jsonrpc: '2.0',
        id,
        error: { code: -32600, message: `Invalid request: ${problem}` },
      } as never)
    }
  }
}
