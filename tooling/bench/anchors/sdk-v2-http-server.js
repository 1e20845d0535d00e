#!/usr/bin/env node
// Anchor for the 2026-07-28 rows: the MCP SDK v2's own HTTP server for that revision, as its
// serving guide builds it on plain `node:http`: `createMcpHandler` (a fresh `McpServer` from the
// factory for each request; 2025 traffic answered statelessly) wrapped once with `toNodeHandler`,
// behind the localhost Host and Origin guards the SDK recommends for a hand-wired server (mcp-kit
// serve checks both too). The same tools, resource and prompt as servers/bench-registry.js, with
// zod schemas. Usage: node sdk-v2-http-server.js [port] — prints "listening on
// http://127.0.0.1:PORT/mcp" on stderr.

import { createServer } from 'node:http'
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from '@modelcontextprotocol/node'
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server'
import { z } from 'zod'

function createMcpServer() {
  const server = new McpServer({ name: 'sdk-v2-bench', version: '1.0.0' })
  server.registerTool(
    'echo',
    { description: 'Returns the message it is given', inputSchema: z.object({ message: z.string() }) },
    async ({ message }) => ({ content: [{ type: 'text', text: message }] }),
  )
  server.registerTool(
    'add',
    {
      description: 'Adds two numbers',
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      outputSchema: z.object({ sum: z.number() }),
    },
    async ({ a, b }) => ({
      content: [{ type: 'text', text: JSON.stringify({ sum: a + b }) }],
      structuredContent: { sum: a + b },
    }),
  )
  server.registerTool(
    'wait',
    {
      description: 'Answers after the given number of milliseconds',
      inputSchema: z.object({ ms: z.number().int().min(0).max(60_000) }),
    },
    async ({ ms }) => {
      await new Promise((resolve) => setTimeout(resolve, ms))
      return { content: [{ type: 'text', text: `waited ${ms} ms` }] }
    },
  )
  server.registerResource(
    'readme',
    'bench://readme',
    { description: 'What this server offers', mimeType: 'text/markdown' },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/markdown', text: '# bench\n\nTools: echo, add, wait.\n' }],
    }),
  )
  server.registerPrompt(
    'greet',
    { description: 'Asks for a friendly greeting', argsSchema: z.object({ name: z.string() }) },
    ({ name }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Write a short greeting for ${name}.` } }],
    }),
  )
  return server
}

const handler = toNodeHandler(createMcpHandler(createMcpServer))
const validateHost = localhostHostValidation()
const validateOrigin = localhostOriginValidation()
const httpServer = createServer((request, response) => {
  if (!validateHost(request, response) || !validateOrigin(request, response)) return
  void handler(request, response)
})
httpServer.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  process.stderr.write(`listening on http://127.0.0.1:${httpServer.address().port}/mcp\n`)
})
process.on('SIGTERM', () => {
  httpServer.closeAllConnections()
  httpServer.close(() => process.exit(0))
})
