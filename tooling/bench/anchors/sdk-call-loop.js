#!/usr/bin/env node
// Anchor for `mcp-kit put`: the raw MCP SDK client reading NDJSON argument records from stdin and
// calling one tool for each, one after another, printing each result as a JSON line.
// Usage: node sdk-call-loop.js <tool> <command> [args…] < records.ndjson

import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'

const [tool, command, ...args] = process.argv.slice(2)
const chunks = []
for await (const chunk of process.stdin) chunks.push(chunk)
const records = Buffer.concat(chunks)
  .toString('utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line))

const client = new Client({ name: 'sdk-call-loop', version: '1.0.0' })
await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }))
for (const record of records) {
  const result = await client.callTool({ name: tool, arguments: record })
  process.stdout.write(`${JSON.stringify(result)}\n`)
}
await client.close()
