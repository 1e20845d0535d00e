#!/usr/bin/env node
// Anchor for `mcp-kit inspect`: what a user would write with the raw MCP SDK to list what a stdio
// server offers (tools, resources, resource templates, prompts, each only when advertised, every
// page), printed as one JSON document. Usage: node sdk-inspect.js <command> [args…]

import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'

const [command, ...args] = process.argv.slice(2)
const client = new Client({ name: 'sdk-inspect', version: '1.0.0' })
await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }))

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
const document = { server: client.getServerVersion(), capabilities }
if (capabilities.tools) document.tools = await listAll((params) => client.listTools(params), 'tools')
if (capabilities.resources) {
  document.resources = await listAll((params) => client.listResources(params), 'resources')
  // Some servers advertise resources but not templates; a user's script learns to shrug that off.
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
