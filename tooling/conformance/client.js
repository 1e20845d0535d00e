#!/usr/bin/env node
// The client under test for the conformance suite's client scenarios: the suite runs
// `node client.js <server-url>` with MCP_CONFORMANCE_SCENARIO (and MCP_CONFORMANCE_PROTOCOL_VERSION)
// set. Everything goes through @mcp-kit/client's public API — `connect`, the Session, an
// InputHandler — so what the suite checks is the product, not protocol code of this file's own.
// Each scenario is what a user of the client would do: list, call, read, answer a question.

import { connect, memoryCredentialStore, noEraCache } from '@mcp-kit/client'

const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? ''
/** Scenario data from the suite, e.g. `toolCalls` to make with exact arguments. */
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}')
const version = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION
const url = process.argv[process.argv.length - 1]

/** A plausible value for a schema property (the suite's tools take simple arguments). */
function sample(schema = {}) {
  if (schema.default !== undefined) return schema.default
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0]
  switch (Array.isArray(schema.type) ? schema.type[0] : schema.type) {
    case 'integer':
    case 'number':
      return 1
    case 'boolean':
      return true
    case 'array':
      return []
    case 'object':
      return sampleArguments(schema)
    default:
      return 'value'
  }
}

/** Arguments for every required property (and every property mirrored into a header). */
function sampleArguments(schema = {}) {
  const properties = schema.properties ?? {}
  const required = new Set(schema.required ?? [])
  const args = {}
  for (const [name, property] of Object.entries(properties)) {
    if (required.has(name) || property?.['x-mcp-header'] !== undefined) args[name] = sample(property)
  }
  return args
}

/** Answers questions the way a user accepting the defaults would. */
const input = {
  async elicit(request) {
    const schema = request.requestedSchema ?? {}
    const content = {}
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      if (property.default !== undefined) content[name] = property.default
      else if ((schema.required ?? []).includes(name)) content[name] = sample(property)
    }
    return request.mode === 'url' ? { action: 'accept' } : { action: 'accept', content }
  },
  async sample() {
    return {
      role: 'assistant',
      content: { type: 'text', text: 'Paris' },
      model: 'conformance',
      stopReason: 'endTurn',
    }
  },
  async roots() {
    return [{ uri: 'file:///tmp', name: 'tmp' }]
  },
}

/** List everything the server offers and use each item once (the suite's own calls, if it gives them). */
async function exercise(session) {
  const tools = await session.listTools()
  if (Array.isArray(context.toolCalls)) {
    for (const call of context.toolCalls) await session.callTool(call.name, call.arguments ?? {})
  } else {
    for (const tool of tools) await session.callTool(tool.name, sampleArguments(tool.inputSchema))
  }
  if (session.capabilities.resources) {
    for (const resource of await session.listResources()) await session.readResource(resource.uri)
  }
  if (session.capabilities.prompts) {
    for (const prompt of await session.listPrompts()) {
      const args = Object.fromEntries(
        (prompt.arguments ?? []).filter((a) => a.required).map((a) => [a.name, 'value']),
      )
      await session.getPrompt(prompt.name, args)
    }
  }
}

const scenarios = {
  initialize: async (session) => {
    const [tool] = await session.listTools()
    if (tool) await session.callTool(tool.name, { a: 2, b: 3 })
  },
  tools_call: async (session) => {
    const [tool] = await session.listTools()
    if (tool) await session.callTool(tool.name, { a: 2, b: 3 })
  },
  'json-schema-ref-no-deref': async (session) => {
    await session.listTools()
  },
  'json-schema-2020-12-preservation': async (session) => {
    const focal = (await session.listTools()).find((tool) => tool.name === 'json_schema_2020_12_tool')
    if (!focal) throw new Error("the focal tool 'json_schema_2020_12_tool' is not listed")
    await session.callTool('json_schema_echo', { schema: focal.inputSchema })
  },
  'request-metadata': exercise,
  'sep-2322-client-request-state': exercise,
  'http-standard-headers': exercise,
  'http-custom-headers': exercise,
  'http-invalid-tool-headers': exercise,
  'elicitation-sep1034-client-defaults': exercise,
  'elicitation-defaults': exercise,
  'sse-retry': exercise,
}

/** A GET whose pooled keep-alive connection closed before any answer (the server's idle close). */
function dropped(error) {
  return ['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE'].includes(error?.cause?.code)
}

/**
 * The browser of a login, headless: the suite's authorization server redirects at once, so
 * following the authorization URL by hand (without following the redirect) yields the callback —
 * what a user's browser would deliver to the loopback listener. Like a browser, it sends the GET
 * once more when its reused connection turns out closed.
 */
function headlessAuthorizer() {
  let callback = new URLSearchParams()
  return {
    prepare: async () => 'http://localhost:3000/callback',
    async open(url) {
      const get = () => fetch(url, { redirect: 'manual' })
      const response = await get().catch((error) => {
        if (!dropped(error)) throw error
        return get()
      })
      const location = response.headers.get('location')
      if (location === null) throw new Error(`no redirect from ${url.origin}`)
      callback = new URL(location).searchParams
    },
    callback: async () => callback,
    close: async () => {},
  }
}

const oauth = {
  store: memoryCredentialStore(),
  authorizer: headlessAuthorizer(),
  clientName: 'mcp-kit-conformance',
  // A Client ID Metadata Document URL, used where the authorization server supports CIMD.
  clientMetadataUrl: 'https://conformance-test.local/client-metadata.json',
  ...(context.client_id === undefined
    ? {}
    : { clientId: context.client_id, clientSecret: context.client_secret }),
}

const run = scenarios[scenario] ?? exercise
const session = await connect(
  { transport: 'http', url },
  {
    clientInfo: { name: 'mcp-kit-conformance', version: '0.1.0' },
    // The suite says which revision the scenario speaks; 2026 and later are negotiated as usual.
    protocol: version === undefined || version >= '2026-07-28' ? 'auto' : '2025-11-25',
    input,
    oauth,
    eraCache: noEraCache,
    onDiagnostic: (message) => process.stderr.write(`mcp-kit: ${message}\n`),
  },
)
try {
  await run(session)
} finally {
  await session.close()
}
