// The server side of stdio: newline-delimited JSON-RPC in on stdin, out on stdout. Ours rather
// than the SDK's StdioServerTransport, which drops lines that fail its checks without an answer
// and leaves the client waiting: this one answers an unparseable line with -32700 and a
// malformed request with -32600.

import type { Readable, Writable } from 'node:stream'
import { isRecord, rpcCodes } from '@mcp-kit/core'
import { envelopeProblem, isRequestId } from '../protocol/message.js'
import type { RpcMessage } from '../protocol/rpc.js'
import type { MessageTransport } from '../server/protocol-server.js'

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
  // a line arriving in many chunks costs its length once, however many chunks it takes.
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
        error: { code: rpcCodes.parseError, message: 'Parse error: a line is not JSON' },
      } as never)
      return
    }
    const problem = envelopeProblem(value)
    if (problem === undefined) {
      this.onmessage?.(value as RpcMessage)
      return
    }
    const id = isRecord(value) && isRequestId(value.id) && 'method' in value ? value.id : null
    // A malformed response or notification has no one to answer; a request is told what was wrong.
    if (id !== null || !isRecord(value) || !('method' in value)) {
      void this.send({
        jsonrpc: '2.0',
        id,
        error: { code: rpcCodes.invalidRequest, message: `Invalid request: ${problem}` },
      } as never)
    }
  }
}
