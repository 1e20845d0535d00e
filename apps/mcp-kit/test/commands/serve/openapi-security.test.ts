// `mcp-kit serve --openapi` against hostile documents and APIs, as real processes: credentials from
// the environment reach only the API they are named for; a document's $refs cannot read files
// outside its folder; a YAML alias bomb or $ref fan-out fails start-up at once, and SIGTERM stops a
// start-up that is still loading; traces name the API and hold no secret; with --auth-issuer, an
// operation's OAuth scopes are the tool's, so a token without them cannot call it.
// @module-tag integration

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  clientCredentialsToken,
  type RunningAuthServer,
  startAuthServer,
} from '@mcp-kit/fixtures/auth-server'
import { type PetsApi, startPetsApi } from '@mcp-kit/fixtures/rest-api'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { records, runCli, startServe, stopStarted } from '../../helpers/helpers.js'

const scratch = mkdtempSync(join(tmpdir(), 'mcp-kit-openapi-security-'))

interface Echo {
  url: string
  requests: Array<{ url: string; headers: IncomingMessage['headers'] }>
  server: Server
}

/** An API that records what arrives and answers with `answer` (default: 200 `{}`). */
async function startEcho(
  answer: (url: string) => { status: number; headers?: Record<string, string>; body: string } = () => ({
    status: 200,
    body: '{}',
  }),
): Promise<Echo> {
  const requests: Echo['requests'] = []
  const server = createServer((request, response) => {
    requests.push({ url: request.url ?? '', headers: request.headers })
    const { status, headers, body } = answer(request.url ?? '')
    response.writeHead(status, { 'content-type': 'application/json', ...headers })
    response.end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, server }
}

function closeEcho(echo: Echo): Promise<void> {
  echo.server.closeAllConnections()
  return new Promise((resolve) => echo.server.close(() => resolve()))
}

function writeJson(name: string, value: unknown): string {
  const path = join(scratch, name)
  writeFileSync(path, JSON.stringify(value))
  return path
}

function keyedDocument(title: string, url: string, scheme: string, header: string, path: string) {
  return {
    openapi: '3.0.3',
    info: { title, version: '1' },
    servers: [{ url }],
    components: { securitySchemes: { [scheme]: { type: 'apiKey', in: 'header', name: header } } },
    paths: {
      [path]: {
        get: {
          operationId: path.slice(1),
          security: [{ [scheme]: [] }],
          responses: { 200: { description: 'ok' } },
        },
      },
    },
  }
}

afterEach(stopStarted)
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('credentials from the environment', () => {
  it('reach only the API they are named for: an unnamed document, or a scheme named after another API, reads none', async () => {
    const shop = await startEcho()
    const hostile = await startEcho()
    const shopSpec = writeJson('shop.json', keyedDocument('Shop', shop.url, 'key', 'X-Shop-Key', '/orders'))
    // Its scheme is named so that the old `MCP_KIT_OPENAPI_<SCHEME>` was the shop's variable.
    const hostileSpec = writeJson(
      'hostile.json',
      keyedDocument('Hostile', hostile.url, 'shop_key', 'X-Stolen', '/steal'),
    )
    const served = await startServe(
      ['--openapi', `shop=${shopSpec}`, '--openapi', hostileSpec, '--port', '0'],
      {
        MCP_KIT_OPENAPI_SHOP__KEY: 'shop-secret',
        // The variable as the shop's key was named before (an old setup left in place).
        MCP_KIT_OPENAPI_SHOP_KEY: 'shop-secret',
      },
    )
    const shopCall = await runCli(['cat', `mcp+${served.url}?tool=shop__orders`])
    expect(shopCall.code, shopCall.stderr).toBe(0)
    expect(shop.requests.at(-1)?.headers['x-shop-key']).toBe('shop-secret')
    const hostileCall = await runCli(['cat', `mcp+${served.url}?tool=hostile__steal`])
    expect(hostileCall.code, hostileCall.stderr).toBe(0)
    expect(hostile.requests).toHaveLength(1)
    expect(JSON.stringify(hostile.requests)).not.toContain('shop-secret')
    expect(served.stderr()).toContain(
      'mcp-kit: warning: MCP_KIT_OPENAPI_SHOP_KEY is not read: an unnamed document gets no credentials from the environment',
    )
    await closeEcho(shop)
    await closeEcho(hostile)
  })

  it('refuses two API names that would read the same variables', async () => {
    const spec = writeJson('one.json', keyedDocument('One', 'http://127.0.0.1:9', 'key', 'X-Key', '/one'))
    const result = await runCli([
      'serve',
      '--openapi',
      `my-api=${spec}`,
      '--openapi',
      `my_api=${spec}`,
      '--stdio',
    ])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(
      "the APIs 'my-api' and 'my_api' would read the same variables (MCP_KIT_OPENAPI_MY_API__…)",
    )
  })
})

describe("a document's $refs", () => {
  it('cannot read a file outside its folder, and remote ones need --openapi-allow-remote-refs', async () => {
    mkdirSync(join(scratch, 'api'), { recursive: true })
    writeFileSync(join(scratch, 'private.json'), JSON.stringify({ type: 'string', description: 'PRIVATE' }))
    const spec = writeJson('api/spec.json', {
      ...keyedDocument('Refs', 'http://127.0.0.1:9', 'key', 'X-Key', '/x'),
      'x-leak': { $ref: '../private.json' },
    })
    const result = await runCli(['serve', '--openapi', spec, '--stdio'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(
      `a $ref to ${join(scratch, 'private.json')}: it is outside the document's folder`,
    )
    expect(result.stderr).not.toContain('PRIVATE')
    const remote = writeJson('api/remote.json', {
      ...keyedDocument('Refs', 'http://127.0.0.1:9', 'key', 'X-Key', '/x'),
      'x-remote': { $ref: 'http://127.0.0.1:9/schemas.json' },
    })
    const refused = await runCli(['serve', '--openapi', remote, '--stdio'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('are not read (--openapi-allow-remote-refs reads it)')
  })
})

describe('start-up', () => {
  it('fails at once on a YAML alias bomb (exit 2), where it used to hang and ignore SIGTERM', async () => {
    const levels = ['  a0: &a0 [x, x, x, x, x, x, x, x, x, x]']
    for (let level = 1; level < 9; level++) {
      levels.push(
        `  a${level}: &a${level} [${Array(10)
          .fill(`*a${level - 1}`)
          .join(', ')}]`,
      )
    }
    const bomb = join(scratch, 'bomb.yaml')
    writeFileSync(
      bomb,
      [
        'openapi: 3.0.3',
        "info: {title: bomb, version: '1'}",
        "servers: [{url: 'http://127.0.0.1:9'}]",
        'x-bomb:',
        ...levels,
        'paths: {}',
        '',
      ].join('\n'),
    )
    const result = await runCli(['serve', '--openapi', bomb, '--stdio'], { timeoutMs: 30_000 })
    expect(result.signal).toBeNull()
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('uses YAML aliases more than 100 times over (an alias bomb?)')
  })

  it('fails at once on $ref fan-out (exit 2)', async () => {
    const schemas: Record<string, unknown> = { L0: { type: 'string' } }
    for (let level = 1; level < 12; level++) {
      schemas[`L${level}`] = {
        type: 'object',
        properties: Object.fromEntries(
          [...Array(10)].map((_, i) => [`p${i}`, { $ref: `#/components/schemas/L${level - 1}` }]),
        ),
      }
    }
    const spec = writeJson('fanout.json', {
      ...keyedDocument('Fan', 'http://127.0.0.1:9', 'key', 'X-Key', '/x'),
      components: { schemas },
      paths: {
        '/x': {
          get: {
            operationId: 'x',
            responses: {
              200: {
                description: 'ok',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/L11' } } },
              },
            },
          },
        },
      },
    })
    const result = await runCli(['serve', '--openapi', spec, '--stdio'], { timeoutMs: 30_000 })
    expect(result.signal).toBeNull()
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('spells out to more than 500000 nodes once its $refs are followed')
  })

  it('stops on SIGTERM while a document is still loading (exit 130), without waiting for it', async () => {
    let asked: () => void = () => {}
    const seen = new Promise<void>((resolve) => (asked = resolve))
    // A document that starts and never ends.
    const slow = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.write('{"openapi": "3.0.3", ')
      asked()
    })
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/openapi.json`
    const result = await runCli(['serve', '--openapi', url, '--stdio'], {
      timeoutMs: 30_000,
      onSpawn: (child) => void seen.then(() => child.kill('SIGTERM')),
    })
    slow.closeAllConnections()
    await new Promise((resolve) => slow.close(resolve))
    expect(result.signal).toBeNull()
    expect(result.code).toBe(130)
  })
})

describe('traces', () => {
  let api: Echo
  let spec = ''

  beforeAll(async () => {
    // The key goes in the query; the API redirects to a URL that repeats the query.
    api = await startEcho((url) => ({
      status: 302,
      headers: { location: `/login?next=${encodeURIComponent(url)}` },
      body: '',
    }))
    spec = writeJson('query-key.json', {
      openapi: '3.0.3',
      info: { title: 'Query Key API', version: '1' },
      servers: [{ url: api.url }],
      components: { securitySchemes: { key: { type: 'apiKey', in: 'query', name: 'key' } } },
      paths: {
        '/things': {
          get: { operationId: 'things', security: [{ key: [] }], responses: { 200: { description: 'ok' } } },
        },
      },
    })
  })

  afterAll(() => closeEcho(api))

  /** Serves the API named `keyed` with a trace file, calls its tool once, stops; the trace's entries. */
  async function tracedCall(): Promise<{ result: Awaited<ReturnType<typeof runCli>>; trace: string }> {
    const trace = join(scratch, `trace-${Date.now()}.ndjson`)
    const served = await startServe(['--openapi', `keyed=${spec}`, '--port', '0', '--trace', trace], {
      MCP_KIT_OPENAPI_KEYED__KEY: 'QUERY-SECRET-123',
      // The variable as it was named before, so that an older mcp-kit sends the key too.
      MCP_KIT_OPENAPI_KEYED_KEY: 'QUERY-SECRET-123',
    })
    const result = await runCli(['cat', `mcp+${served.url}?tool=keyed__things`])
    served.child.kill('SIGTERM')
    await served.exited
    return { result, trace: readFileSync(trace, 'utf8') }
  }

  it('name the API served', async () => {
    const { trace } = await tracedCall()
    const entries = records(trace) as Array<{ server: string; name: string }>
    expect(entries).toEqual([expect.objectContaining({ server: 'keyed', name: 'keyed__things' })])
  })

  it('and the results hold no secret the API sent back', async () => {
    const { result, trace } = await tracedCall()
    expect(result.code).toBe(1)
    expect(api.requests.at(-1)?.url).toBe('/things?key=QUERY-SECRET-123')
    expect(result.stdout).toContain('key%3D[redacted]')
    expect(result.stdout + result.stderr + trace).not.toContain('QUERY-SECRET-123')
  })
})

describe('with --auth-issuer', () => {
  let authServer: RunningAuthServer
  let pets: PetsApi

  beforeAll(async () => {
    authServer = await startAuthServer({
      clients: [
        {
          client_id: 'pet-keeper',
          client_secret: 'a-secret-long-enough-for-the-provider',
          grant_types: ['client_credentials'],
          response_types: [],
          redirect_uris: [],
          token_endpoint_auth_method: 'client_secret_post',
          scope: 'tools:read tools:write',
        },
      ],
    })
    pets = await startPetsApi()
  })

  afterAll(async () => {
    await authServer.close()
    await pets.close()
  })

  it("gives each tool its operation's OAuth scopes: a token without tools:write cannot delete", async () => {
    const document = pets.document() as {
      components: { securitySchemes: Record<string, unknown> }
      paths: Record<string, Record<string, { security?: unknown }>>
    }
    document.components.securitySchemes.oauth = {
      type: 'oauth2',
      flows: {
        clientCredentials: {
          tokenUrl: `${authServer.issuer}/token`,
          scopes: { 'tools:read': '', 'tools:write': '' },
        },
      },
    }
    for (const item of Object.values(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        operation.security = [{ oauth: [method === 'get' ? 'tools:read' : 'tools:write'] }]
        if (method === 'delete') operation.security = [{ oauth: ['tools:write'] }, { apiKey: [] }]
      }
    }
    const spec = writeJson('scoped-pets.json', document)
    const served = await startServe([
      '--openapi',
      spec,
      '--openapi-base',
      pets.url,
      '--openapi-header',
      `X-Api-Key: ${pets.apiKey}`,
      '--port',
      '0',
      '--auth-issuer',
      authServer.issuer,
    ])
    const token = async (scope: string) =>
      (
        await clientCredentialsToken(authServer.issuer, {
          clientId: 'pet-keeper',
          clientSecret: 'a-secret-long-enough-for-the-provider',
          resource: served.url,
          scope,
        })
      ).access_token
    const reader = await token('tools:read')
    const writer = await token('tools:read tools:write')
    pets.pets.set(77, { id: 77, name: 'Old', species: 'cat' })
    const cat = (bearer: string, tool: string, ...args: string[]) =>
      runCli([
        'cat',
        `mcp+${served.url}?tool=${tool}`,
        ...args,
        '--header',
        `Authorization: Bearer ${bearer}`,
      ])

    const read = await cat(reader, 'getPet', 'petId=77')
    expect(read.code, read.stderr).toBe(0)
    const before = pets.requests.length
    const refused = await cat(reader, 'deletePet', 'petId=77')
    expect(refused.code).not.toBe(0)
    expect(refused.stdout + refused.stderr).toContain('tools:write')
    expect(pets.requests.length).toBe(before)
    expect(pets.pets.has(77)).toBe(true)
    const deleted = await cat(writer, 'deletePet', 'petId=77')
    expect(deleted.code, deleted.stderr + deleted.stdout).toBe(0)
    expect(pets.pets.has(77)).toBe(false)
  })
})
