// HandlerContext.roundState: what a 2026-07-28 handler keeps for its own retry travels inside the
// signed requestState and comes back with it; a first round (or a retry without the state) has
// none, and a 2025-11-25 session or the embedded runtime ignore it.

import { expect, test } from 'vitest'
import { createToolRegistry } from '../../src/registry/registry.js'
import { createRuntime } from '../../src/runtime/runtime.js'
import { post, serve } from '../helpers/http.js'

const version = '2026-07-28'

function registry() {
  return createToolRegistry().tool({
    name: 'count',
    async handler(_args, context) {
      const seen = context.roundState
      context.roundState = `${Number(seen ?? 0) + 1}`
      await context.elicit({ message: 'Go on?', requestedSchema: { type: 'object', properties: {} } })
      return `kept ${seen ?? 'nothing'}, now ${context.roundState ?? 'nothing'}`
    },
  })
}

async function round(url: string, extra: Record<string, unknown> = {}) {
  const answer = await post(
    url,
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'count',
        arguments: {},
        ...extra,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': version,
          'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
        },
      },
    },
    { 'mcp-protocol-version': version, 'mcp-method': 'tools/call', 'mcp-name': 'count' },
  )
  return (answer.json as { result: Record<string, unknown> }).result
}

test('a handler gets back on the retry what it kept in the round that asked', async () => {
  const server = await serve(registry())
  const first = await round(server.url)
  expect(first.resultType).toBe('input_required')
  const answers = { 'elicitation-1': { action: 'accept', content: {} } }
  const done = await round(server.url, { requestState: first.requestState, inputResponses: answers })
  expect(done).toMatchObject({ resultType: 'complete', content: [{ text: 'kept 1, now 2' }] })
  // Without the requestState the retry is a first round: nothing kept.
  const fresh = await round(server.url, { inputResponses: answers })
  expect(fresh).toMatchObject({ content: [{ text: 'kept nothing, now 1' }] })
})

test('the embedded runtime ignores it', async () => {
  const runtime = createRuntime(registry())
  const result = await runtime.callTool(
    'count',
    {},
    { elicit: async () => ({ action: 'accept', content: {} }) },
  )
  expect(result.content).toEqual([{ type: 'text', text: 'kept nothing, now nothing' }])
})
