// The policy against a real authorization server (oidc-provider): principals matched by OAuth
// subject and scopes. Alice's token carries `tools:write`, Bob's only `tools:read`; the rules hide
// a write tool from tokens without the scope and an echo tool from everyone but Alice by `sub`.

import { connect, type Session } from '@mcp-kit/client'
import { obtainToken, type RunningAuthServer, startAuthServer } from '@mcp-kit/fixtures/auth-server'
import { createToolRegistry, startHttpServer } from '@mcp-kit/server'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import { createGateway } from '../../src/index.js'

let authServer: RunningAuthServer
const closers: Array<() => Promise<unknown>> = []

beforeAll(async () => {
  authServer = await startAuthServer()
})
afterAll(async () => {
  await authServer?.close()
})
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

test('OAuth principals: a tool is hidden and refused by missing scope, another by subject', async () => {
  const upstream = await startHttpServer(
    createToolRegistry()
      .tool({ name: 'write', annotations: { destructiveHint: true }, handler: () => 'written' })
      .tool({
        name: 'echo',
        annotations: { readOnlyHint: true, destructiveHint: false },
        handler: () => 'echoed',
      }),
  )
  closers.push(() => upstream.close())
  const gateway = createGateway({
    upstreams: [{ name: 'up', server: { transport: 'http', url: upstream.url } }],
    policy: {
      default: 'allow',
      rules: [
        {
          effect: 'deny',
          what: { annotations: { destructiveHint: true } },
          unless: { scopes: ['tools:write'] },
        },
        { effect: 'deny', what: { tools: ['up__echo'] }, unless: { sub: ['alice'] } },
      ],
    },
  })
  await gateway.start()
  closers.push(() => gateway.close())
  const front = await startHttpServer(gateway.registry, { auth: { issuer: authServer.issuer } })
  closers.push(() => front.close())
  const sessionOf = async (login: string, scope: string): Promise<Session> => {
    const token = await obtainToken(authServer.issuer, { resource: front.url, login, scope })
    const session = await connect(
      { transport: 'http', url: front.url },
      { headers: { Authorization: `Bearer ${token.access_token}` } },
    )
    closers.push(() => session.close())
    return session
  }
  const alice = await sessionOf('alice', 'tools:read tools:write')
  const bob = await sessionOf('bob', 'tools:read')
  expect((await alice.listTools()).map((tool) => tool.name).sort()).toEqual(['up__echo', 'up__write'])
  expect((await bob.listTools()).map((tool) => tool.name)).toEqual([])
  expect((await alice.callTool('up__write', {})).content).toEqual([{ type: 'text', text: 'written' }])
  await expect(bob.callTool('up__write', {})).rejects.toThrow(/Unknown tool: up__write/)
  await expect(bob.callTool('up__echo', {})).rejects.toThrow(/Unknown tool: up__echo/)
})
