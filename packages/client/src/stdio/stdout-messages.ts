// The server's stdout as JSON-RPC messages: one per line, each line capped while it arrives; lines that
// are not JSON-RPC 2.0 messages are skipped with one diagnostic each.

import { isRecord } from '@mcp-kit/core'
import type { JSONRPCMessage } from '@modelcontextprotocol/client'

export interface StdoutMessagesOptions {
  maxMessageBytes: number
  onMessage: (message: JSONRPCMessage) => void
  /** A line went over the limit; what was buffered is dropped. */
  onOversized: (bytes: number) => void
  onDiagnostic?: (message: string) => void
}

/** Returns the function to feed each stdout chunk to. */
export function createStdoutMessages(options: StdoutMessagesOptions): (chunk: Buffer) => void {
  const { maxMessageBytes } = options
  let pending: Buffer[] = []
  let pendingBytes = 0

  const skip = (line: string, why: string) => {
    const shown = line.length > 200 ? `${line.slice(0, 200)}…` : line
    options.onDiagnostic?.(`skipped a line on the server's stdout (${why}): ${shown}`)
  }

  const onLine = (text: string) => {
    const line = text.endsWith('\r') ? text.slice(0, -1) : text
    if (line.trim() === '') return
    let parsed: unknown
    try {
      parsed = JSON.parse(line)
    } catch {
      skip(line, 'not JSON')
      return
    }
    const items = Array.isArray(parsed) ? parsed : [parsed]
    let skipped = 0
    for (const item of items) {
      if (isRecord(item) && item.jsonrpc === '2.0') {
        options.onMessage(item as JSONRPCMessage)
      } else skipped++
    }
    // One line, one diagnostic, however many items of a batch were not messages.
    if (!Array.isArray(parsed)) {
      if (skipped > 0) skip(line, 'not a JSON-RPC 2.0 message')
    } else if (items.length === 0) skip(line, 'an empty batch')
    else if (skipped > 0) skip(line, `${skipped} of the ${items.length} items are not JSON-RPC 2.0 messages`)
  }

  const oversized = (bytes: number) => {
    pending = []
    pendingBytes = 0
    options.onOversized(bytes)
  }

  return (chunk: Buffer) => {
    let start = 0
    let newline = chunk.indexOf(10)
    while (newline !== -1) {
      const piece = chunk.subarray(start, newline)
      const line = pending.length === 0 ? piece : Buffer.concat([...pending, piece])
      pending = []
      pendingBytes = 0
      if (line.length > maxMessageBytes) {
        oversized(line.length)
        return
      }
      onLine(line.toString('utf8'))
      start = newline + 1
      newline = chunk.indexOf(10, start)
    }
    if (start < chunk.length) {
      const rest = start === 0 ? chunk : chunk.subarray(start)
      pendingBytes += rest.length
      if (pendingBytes > maxMessageBytes) {
        oversized(pendingBytes)
        return
      }
      pending.push(rest)
    }
  }
}
