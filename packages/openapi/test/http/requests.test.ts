// What leaves for the API and what comes back, with a local server: credentials as the security
// schemes say (API keys, bearer, basic, OAuth client credentials), only ever to the API's own
// origin and never in a message; answers of every kind mapped; redirects, timeouts and
// connection failures as clear tool errors.

import { createRuntime, type Runtime } from '@mcp-kit/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createOpenApiRegistry,
  credentialsFromEnvironment,
  loadOpenApi,
  type OpenApiToolOptions,
} from '../../src/index.js'
import { type Answer, type Recorded, type Recorder, startRecorder } from '../helpers/recorder.js'

let api: Recorder
let other: Recorder
let answer: (request: Recorded) => Answer = () => ({})

function document(base: string, tokenUrl = `${base}/token`) {
  const operation = (operationId: string, security: unknown, extra: Record<string, unknown> = {}) => ({
    operationId,
    security,
    responses: { 200: { description: 'ok' } },
    ...extra,
  })
  return {
    openapi: '3.1.0',
    info: { title: 'Test API', version: '1' },
    servers: [{ url: `${base}/v1` }],
    components: {
      securitySchemes: {
        queryKey: { type: 'apiKey', in: 'query', name: 'key' },
        cookieKey: { type: 'apiKey', in: 'cookie', name: 'session' },
        bearer: { type: 'http', scheme: 'bearer' },
        basic: { type: 'http', scheme: 'basic' },
        machine: {
          type: 'oauth2',
          flows: { clientCredentials: { tokenUrl, scopes: { read: 'read', write: 'write' } } },
        },
      },
    },
    paths: {
      '/query': { get: operation('byQueryKey', [{ queryKey: [] }]) },
      '/cookie': { get: operation('byCookie', [{ cookieKey: [] }]) },
      '/either': { get: operation('eitherBearerOrBasic', [{ bearer: [] }, { basic: [] }]) },
      '/basic': { get: operation('byBasic', [{ basic: [] }]) },
      '/machine': { get: operation('byClient', [{ machine: ['read', 'write'] }]) },
      '/elsewhere': {
        get: operation('elsewhere', [{ bearer: [] }], { servers: [{ url: `${other.url}/v1` }] }),
      },
      '/anything': { get: operation('anything', []) },
    },
  }
}

async function runtimeFor(options: OpenApiToolOptions, base = api.url, tokenUrl?: string): Promise<Runtime> {
  return createRuntime(createOpenApiRegistry(await loadOpenApi(document(base, tokenUrl)), options))
}

const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text

beforeAll(async () => {
  api = await startRecorder((request) => {
    if (request.url === '/token') {
      return {
        body: {
          access_token: `token-${api.requests.filter((each) => each.url === '/token').length}`,
          expires_in: 3600,
        },
      }
    }
    return answer(request)
  })
  other = await startRecorder()
})

afterAll(async () => {
  await api.close()
  await other.close()
})

describe('credentials', () => {
  it('sends API keys, bearer tokens and basic credentials where the scheme says', async () => {
    const runtime = await runtimeFor({
      credentials: {
        queryKey: 'k 1',
        cookieKey: 'c1',
        bearer: 't1',
        basic: { username: 'ann', password: 'p:w' },
      },
    })
    await runtime.callTool('byQueryKey', {})
    expect(api.requests.at(-1)?.url).toBe('/v1/query?key=k%201')
    await runtime.callTool('byCookie', {})
    expect(api.requests.at(-1)?.headers.cookie).toBe('session=c1')
    await runtime.callTool('eitherBearerOrBasic', {})
    expect(api.requests.at(-1)?.headers.authorization).toBe('Bearer t1')
    await runtime.callTool('byBasic', {})
    expect(api.requests.at(-1)?.headers.authorization).toBe(
      `Basic ${Buffer.from('ann:p:w').toString('base64')}`,
    )
    await runtime.callTool('anything', {})
    expect(api.requests.at(-1)?.headers.authorization).toBeUndefined()
  })

  it('takes the first alternative whose credentials are all there', async () => {
    const runtime = await runtimeFor({ credentials: { basic: 'bob:secret' } })
    await runtime.callTool('eitherBearerOrBasic', {})
    expect(api.requests.at(-1)?.headers.authorization).toBe(
      `Basic ${Buffer.from('bob:secret').toString('base64')}`,
    )
  })

  it('gets OAuth client credentials tokens once and sends them as bearer tokens', async () => {
    const runtime = await runtimeFor({
      credentials: { machine: { clientId: 'svc', clientSecret: 's3cret' } },
    })
    await runtime.callTool('byClient', {})
    await runtime.callTool('byClient', {})
    const tokenRequests = api.requests.filter((request) => request.url === '/token')
    expect(tokenRequests).toHaveLength(1)
    expect(tokenRequests[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from('svc:s3cret').toString('base64')}`,
    )
    expect(new URLSearchParams(tokenRequests[0]?.body)).toEqual(
      new URLSearchParams({ grant_type: 'client_credentials', scope: 'read write' }),
    )
    expect(api.requests.at(-1)).toMatchObject({
      url: '/v1/machine',
      headers: { authorization: 'Bearer token-1' },
    })
  })

  it('sends no client secret to a token URL that is not https', async () => {
    const runtime = await runtimeFor(
      { credentials: { machine: { clientId: 'svc', clientSecret: 's3cret' } } },
      api.url,
      'http://auth.example.com/token',
    )
    const result = await runtime.callTool('byClient', {})
    expect(result.isError).toBe(true)
    expect(text(result)).toBe(
      "security scheme 'machine': the token URL http://auth.example.com is not https; the client secret is not sent there",
    )
  })

  it('go to the API origin only: an operation naming another server is still sent to the base URL', async () => {
    const runtime = await runtimeFor({ credentials: { bearer: 't1' } })
    await runtime.callTool('elsewhere', {})
    expect(other.requests).toEqual([])
    expect(api.requests.at(-1)).toMatchObject({
      url: '/v1/elsewhere',
      headers: { authorization: 'Bearer t1' },
    })
  })

  it("come from the environment by the API's name and the scheme's", async () => {
    const loaded = await loadOpenApi(document(api.url))
    expect(
      credentialsFromEnvironment(loaded, 'test-api', {
        MCP_KIT_OPENAPI_TEST_API__QUERYKEY: 'k1',
        MCP_KIT_OPENAPI_TEST_API__BASIC: 'ann:pw',
        MCP_KIT_OPENAPI_TEST_API__MACHINE__CLIENT_ID: 'svc',
        MCP_KIT_OPENAPI_TEST_API__MACHINE__CLIENT_SECRET: 's1',
        MCP_KIT_OPENAPI_TEST_API__BEARER: '',
      }),
    ).toEqual({
      queryKey: 'k1',
      basic: { username: 'ann', password: 'pw' },
      machine: { clientId: 'svc', clientSecret: 's1' },
    })
  })
})

describe('answers', () => {
  it('maps text, images, other bytes and API errors', async () => {
    const runtime = await runtimeFor({ credentials: { queryKey: 'SECRET-KEY' } })
    answer = () => ({ headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'plain words' })
    expect((await runtime.callTool('anything', {})).content).toEqual([{ type: 'text', text: 'plain words' }])
    answer = () => ({ headers: { 'content-type': 'image/png' }, body: Buffer.from([137, 80, 78, 71]) })
    expect((await runtime.callTool('anything', {})).content).toEqual([
      { type: 'image', mimeType: 'image/png', data: Buffer.from([137, 80, 78, 71]).toString('base64') },
    ])
    answer = () => ({ headers: { 'content-type': 'application/pdf' }, body: Buffer.from('%PDF') })
    expect((await runtime.callTool('anything', {})).content).toEqual([
      {
        type: 'resource',
        resource: {
          uri: `${api.url}/v1/anything`,
          mimeType: 'application/pdf',
          blob: Buffer.from('%PDF').toString('base64'),
        },
      },
    ])
    answer = () => ({
      status: 503,
      headers: { 'content-type': 'application/problem+json' },
      body: { type: 'about:blank', title: 'Unavailable', detail: 'down for maintenance' },
    })
    const failed = await runtime.callTool('byQueryKey', {})
    expect(failed.isError).toBe(true)
    expect(text(failed)).toBe('GET /query: HTTP 503 Service Unavailable: down for maintenance')
    answer = () => ({})
  })

  it('does not follow redirects', async () => {
    const runtime = await runtimeFor({ credentials: { bearer: 't1' } })
    answer = () => ({ status: 302, headers: { location: `${other.url}/stolen` }, body: '' })
    const result = await runtime.callTool('eitherBearerOrBasic', {})
    answer = () => ({})
    expect(result.isError).toBe(true)
    expect(text(result)).toBe(
      `GET /either: HTTP 302 Found: redirected to ${other.url}/stolen (redirects are not followed)`,
    )
    expect(other.requests).toEqual([])
  })

  it('says when the API does not answer in time, or cannot be reached, never showing a key', async () => {
    const slow = await runtimeFor({ timeoutMs: 200, credentials: { queryKey: 'SECRET-KEY' } })
    answer = () => ({ hang: true })
    const late = await slow.callTool('byQueryKey', {})
    answer = () => ({})
    expect(late.isError).toBe(true)
    expect(text(late)).toBe(`GET ${api.url}/v1/query: no answer within 0.2 s`)

    const closed = await startRecorder()
    await closed.close()
    const unreachable = await runtimeFor({ credentials: { queryKey: 'SECRET-KEY' } }, closed.url)
    const refused = await unreachable.callTool('byQueryKey', {})
    expect(refused.isError).toBe(true)
    expect(text(refused)).toBe(`GET ${closed.url}/v1/query: cannot reach the API: connection refused`)
    expect(JSON.stringify([late, refused])).not.toContain('SECRET-KEY')
  })
})
