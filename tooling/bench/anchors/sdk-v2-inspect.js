#!/usr/bin/env node
// Anchor for `mcp-kit inspect` of a 2026-07-28 HTTP server: what a user would write with the MCP
// SDK v2 client (`@modelcontextprotocol/client`) in its `auto` version negotiation (server/discover
// first, 2025 `initialize` as the fallback, as mcp-kit does): connect, list what the server
// advertises (tools, resources, resource templates, prompts, every page), print one JSON document,
// close. Usage: node sdk-v2-inspect.js <url>

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'

const client = new Client(
  { name: 'sdk-v2-inspect', version: '1.0.0' },
  { versionNegotiation: { mode: 'auto' } },
)
await client.connect(new StreamableHTTPClientTransport(new URL(process.argv[2])))

/** Follows nextCursor so every page is listed, as `mcp-kit inspect` does. */
async function listAll(list, key) {
  const items = []
  let cursor
  do {
    const page = await list(cursor === undefined ? {} : { cursor })
    items.push(...page[key])
    cursor = page.nextCursor
  } while (cursor)
  return items
}

const capabilities = client.getServerCapabilities() ?? {}
const document = {
  server: client.getServerVersion(),
  protocolVersion: client.getNegotiatedProtocolVersion(),
  capabilities,
}
if (capabilities.tools) document.tools = await listAll((params) => client.listTools(params), 'tools')
if (capabilities.resources) {
  document.resources = await listAll((params) => client.listResources(params), 'resources')
  document.resourceTemplates = await listAll(
    (params) => client.listResourceTemplates(params),
    'resourceTemplates',
  ).catch((error) => {
    if (error?.code === -32601) return []
    throw error
  })
}
if (capabilities.prompts) document.prompts = await listAll((params) => client.listPrompts(params), 'prompts')
process.stdout.write(`${JSON.stringify(document, null, 2)}\n`)
await client.close()
