// Which header wins when several say one: configured headers over credentials, the caller's header
// parameters over configured headers, forced headers over everything. Credentials from the
// environment are bound to one API's name, and no scheme name reaches another API's variables.
// Operations' OAuth scopes become the tools' scopes when asked.

import { createRuntime } from '@mcp-kit/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createOpenApiRegistry,
  credentialsFromEnvironment,
  environmentVariable,
  loadOpenApi,
  type OpenApiDocument,
  OpenApiError,
  openApiTools,
} from '../../src/index.js'
import { type Recorder, startRecorder } from '../helpers/recorder.js'

let api: Recorder
let document: OpenApiDocument

beforeAll(async () => {
  api = await startRecorder()
  document = await loadOpenApi({
    openapi: '3.1.0',
    info: { title: 'Headers', version: '1' },
    servers: [{ url: api.url }],
    components: {
      securitySchemes: {
        key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
        bearer: { type: 'http', scheme: 'bearer' },
        oauth: {
          type: 'oauth2',
          flows: {
            clientCredentials: {
              tokenUrl: 'https://auth.example/token',
              scopes: { 'pets:read': '', 'pets:write': '' },
            },
          },
        },
        oidc: {
          type: 'openIdConnect',
          openIdConnectUrl: 'https://auth.example/.well-known/openid-configuration',
        },
      },
    },
    paths: {
      '/pets': {
        get: {
          operationId: 'listPets',
          security: [{ key: [] }],
          parameters: [{ name: 'X-Request-Id', in: 'header', schema: { type: 'string' } }],
          responses: { 200: { description: 'ok' } },
        },
        delete: {
          operationId: 'deletePets',
          security: [{ oauth: ['pets:write'] }, { oidc: ['admin'], bearer: [] }],
          responses: { 204: { description: 'gone' } },
        },
      },
      '/open': { get: { operationId: 'open', security: [{}], responses: { 200: { description: 'ok' } } } },
    },
  })
})

afterAll(() => api.close())

describe('header precedence', () => {
  it('configured headers win over credentials, the caller over configured headers, forced over all', async () => {
    const call = async (
      options: Parameters<typeof createOpenApiRegistry>[1],
      args: Record<string, unknown>,
    ) => {
      await createRuntime(createOpenApiRegistry(document, options)).callTool('listPets', args)
      return api.requests.at(-1)?.headers ?? {}
    }
    const credentials = { key: 'from-credentials' }
    expect((await call({ credentials }, {}))['x-api-key']).toBe('from-credentials')
    const configured = {
      credentials,
      headers: { 'X-Api-Key': 'configured', 'X-Request-Id': 'configured-id' },
    }
    expect(await call(configured, {})).toMatchObject({
      'x-api-key': 'configured',
      'x-request-id': 'configured-id',
    })
    expect((await call(configured, { 'X-Request-Id': 'from-caller' }))['x-request-id']).toBe('from-caller')
    const forced = { ...configured, forcedHeaders: { 'x-request-id': 'forced-id' } }
    expect((await call(forced, { 'X-Request-Id': 'from-caller' }))['x-request-id']).toBe('forced-id')
  })
})

describe('credentials from the environment', () => {
  it('are bound to one API: its name, two underscores, the scheme', () => {
    expect(environmentVariable('pets', 'key')).toBe('MCP_KIT_OPENAPI_PETS__KEY')
    expect(environmentVariable('my-shop', 'api key (v2)')).toBe('MCP_KIT_OPENAPI_MY_SHOP__API_KEY_V2')
    expect(environmentVariable('--', 'key')).toBeUndefined()
    const env = {
      MCP_KIT_OPENAPI_PETS__KEY: 'pets-key',
      MCP_KIT_OPENAPI_KEY: 'unbound',
      MCP_KIT_OPENAPI_SHOP__KEY: 'shop-key',
    }
    expect(credentialsFromEnvironment(document, 'pets', env)).toEqual({ key: 'pets-key' })
    expect(credentialsFromEnvironment(document, 'shop', env)).toEqual({ key: 'shop-key' })
  })

  it('cannot be reached by a scheme named after another API', async () => {
    // API 'shop' keeps its key in MCP_KIT_OPENAPI_SHOP__KEY; a document whose scheme is named
    // `shop_key` (or `shop__key`) must not read it, whatever it is served as.
    const hostile = await loadOpenApi({
      openapi: '3.1.0',
      info: { title: 'Hostile', version: '1' },
      servers: [{ url: api.url }],
      components: {
        securitySchemes: {
          shop_key: { type: 'apiKey', in: 'header', name: 'X-Steal' },
          shop__key: { type: 'apiKey', in: 'header', name: 'X-Steal-2' },
        },
      },
      paths: {},
    })
    const env = { MCP_KIT_OPENAPI_SHOP__KEY: 'shop-key', MCP_KIT_OPENAPI_SHOP_KEY: 'shop-key' }
    for (const name of ['hostile', 'x', 'shop_', 'openapi']) {
      expect(credentialsFromEnvironment(hostile, name, env)).toEqual({})
    }
  })
})

describe('scopes', () => {
  it('are the OAuth and OpenID Connect scopes of every alternative, when asked for', () => {
    const scoped = openApiTools(document, { requireScopes: true })
    const scopes = Object.fromEntries(scoped.map((tool) => [tool.name, tool.definition.scopes]))
    expect(scopes).toEqual({ listPets: undefined, deletePets: ['admin', 'pets:write'], open: undefined })
    expect(openApiTools(document).every((tool) => tool.definition.scopes === undefined)).toBe(true)
  })

  it('refuse a scope no token could carry', async () => {
    const bad = await loadOpenApi({
      openapi: '3.1.0',
      info: { title: 'Bad', version: '1' },
      servers: [{ url: api.url }],
      components: { securitySchemes: { oauth: { type: 'oauth2', flows: {} } } },
      paths: {
        '/x': { get: { security: [{ oauth: ['two words'] }], responses: { 200: { description: 'ok' } } } },
      },
    })
    expect(() => openApiTools(bad, { requireScopes: true })).toThrow(OpenApiError)
    expect(() => openApiTools(bad, { requireScopes: true })).toThrow(
      'GET /x: its security names the scope "two words"',
    )
  })
})
