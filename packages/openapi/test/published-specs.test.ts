// Published descriptions of APIs nobody here wrote (@readme/oas-examples: the Swagger Petstore,
// the USPTO data set API, Bump.sh's Train Travel API in OpenAPI 3.1 YAML, and the collection's
// parameter-style and circular-schema documents): parsed, their tool lists pinned, a few calls
// made against a local server to see the requests exactly as they leave.

import { createRuntime } from '@mcp-kit/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createOpenApiRegistry,
  loadOpenApi,
  OpenApiError,
  type OpenApiTool,
  openApiTools,
} from '../src/index.js'
import { example, type Recorder, startRecorder } from './helpers/recorder.js'

/** One line per tool: name, method and path, what it promises, its arguments (required with *), its output. */
function summary(tools: readonly OpenApiTool[]): string[] {
  return tools.map((tool) => {
    const { definition } = tool
    const hints = definition.annotations ?? {}
    const promise = hints.readOnlyHint ? 'read-only' : hints.destructiveHint ? 'destructive' : 'writes'
    const input = definition.inputSchema as { properties: Record<string, unknown>; required?: string[] }
    const required = new Set(input.required ?? [])
    const args = Object.keys(input.properties).map((name) => `${name}${required.has(name) ? '*' : ''}`)
    const output =
      definition.outputSchema === undefined
        ? '-'
        : Object.keys(definition.outputSchema.properties ?? {}).join(',') || 'object'
    return `${tool.name} ${tool.method} ${tool.path} [${promise}] (${args.join(', ')}) → ${output}`
  })
}

describe('tool lists of published documents', () => {
  it.each([
    ['the Swagger Petstore (3.0, JSON)', '3.0/json/petstore.json'],
    ['the USPTO data set API (3.0, YAML)', '3.0/yaml/uspto.yaml'],
    ['the Train Travel API (3.1, YAML)', '3.1/yaml/train-travel.yaml'],
    ['a document with circular schemas', '3.0/json/schema-circular.json'],
  ])('%s', async (_name, path) => {
    const document = await loadOpenApi(example(path))
    // Strict: the success answers' schemas are declared as output schemas.
    const tools = openApiTools(document, { strictResponses: true })
    expect(summary(tools)).toMatchSnapshot()
    // Every schema is plain JSON (recursive ones end in "anything"), as clients receive it.
    for (const tool of tools) expect(() => JSON.stringify(tool.definition.inputSchema)).not.toThrow()
    // And the registry takes every one (names, schemas it can compile).
    expect(createOpenApiRegistry(document).tools.size).toBe(tools.length)
  })

  it('filters by operationId, tag, method and path, with globs', async () => {
    const document = await loadOpenApi(example('3.0/json/petstore.json'))
    const names = (options: Parameters<typeof openApiTools>[1]) =>
      openApiTools(document, options).map((tool) => tool.name)
    expect(names({ include: ['tag:store'] })).toEqual([
      'getInventory',
      'placeOrder',
      'getOrderById',
      'deleteOrder',
    ])
    expect(names({ include: ['get*ById'] })).toEqual(['getPetById', 'getOrderById'])
    expect(names({ include: ['DELETE /*'], exclude: ['tag:user'] })).toEqual(['deletePet', 'deleteOrder'])
    expect(names({ exclude: ['tag:pet', 'tag:user'] })).toHaveLength(4)
  })

  it('refuses Swagger 2.0, saying how to convert it', async () => {
    const error = await loadOpenApi(example('2.0/json/petstore.json')).catch((caught: unknown) => caught)
    expect(OpenApiError.isInstance(error)).toBe(true)
    expect((error as OpenApiError).code).toBe('invalid_spec')
    expect((error as Error).message).toMatch(
      /is a Swagger 2\.0 document; OpenAPI 3\.0 and 3\.1 are read: convert it first \(e\.g\. npx swagger2openapi /,
    )
  })
})

describe('calls against a local server that implements the Petstore', () => {
  let server: Recorder
  beforeAll(async () => {
    server = await startRecorder((request) => {
      if (request.url.startsWith('/v2/pet/findByStatus'))
        return { body: [{ id: 7, name: 'Rex', photoUrls: [] }] }
      if (request.url === '/v2/store/inventory') return { body: { available: 3, sold: 1 } }
      if (request.url === '/v2/pet/8')
        return { status: 404, body: { code: 1, type: 'error', message: 'Pet not found' } }
      if (request.method === 'DELETE' || (request.url === '/v2/pet/7' && request.method === 'POST'))
        return { status: 200, body: '' }
      return { body: { id: 7, name: 'Rex', photoUrls: ['a.png'], status: 'available' } }
    })
  })
  afterAll(() => server.close())

  it('builds each request exactly as the document says', async () => {
    const document = await loadOpenApi(example('3.0/json/petstore.json'))
    const runtime = createRuntime(
      createOpenApiRegistry(document, {
        baseUrl: `${server.url}/v2`,
        credentials: { api_key: 'key-1', petstore_auth: 'token-1' },
      }),
    )
    const found = await runtime.callTool('findPetsByStatus', { status: ['available', 'sold'] })
    expect(server.requests.at(-1)).toMatchObject({
      method: 'GET',
      url: '/v2/pet/findByStatus?status=available&status=sold',
      headers: { authorization: 'Bearer token-1' },
    })
    expect(found.structuredContent).toEqual({ result: [{ id: 7, name: 'Rex', photoUrls: [] }] })

    const pet = await runtime.callTool('getPetById', { petId: 7 })
    expect(server.requests.at(-1)).toMatchObject({ url: '/v2/pet/7', headers: { api_key: 'key-1' } })
    expect(server.requests.at(-1)?.headers.authorization).toBeUndefined()
    expect(pet.structuredContent).toMatchObject({ id: 7, name: 'Rex' })

    await runtime.callTool('addPet', { name: 'Rex', photoUrls: ['a.png'], status: 'pending' })
    expect(server.requests.at(-1)).toMatchObject({
      method: 'POST',
      url: '/v2/pet',
      headers: { 'content-type': 'application/json' },
    })
    expect(JSON.parse(server.requests.at(-1)?.body ?? '')).toEqual({
      name: 'Rex',
      photoUrls: ['a.png'],
      status: 'pending',
    })

    await runtime.callTool('updatePetWithForm', { petId: 7, name: 'Rex Jr', status: 'sold' })
    expect(server.requests.at(-1)).toMatchObject({
      method: 'POST',
      url: '/v2/pet/7',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=Rex%20Jr&status=sold',
    })

    await runtime.callTool('deletePet', { petId: 7, api_key: 'header-value' })
    expect(server.requests.at(-1)).toMatchObject({
      method: 'DELETE',
      url: '/v2/pet/7',
      headers: { api_key: 'header-value' },
    })

    const inventory = await runtime.callTool('getInventory', {})
    expect(inventory.structuredContent).toEqual({ available: 3, sold: 1 })

    const missing = await runtime.callTool('getPetById', { petId: 8 })
    expect(missing).toMatchObject({
      isError: true,
      content: [
        {
          type: 'text',
          // The message first, then the whole body (here its code and type).
          text: 'GET /pet/{petId}: HTTP 404 Not Found: Pet not found\n{"code":1,"type":"error","message":"Pet not found"}',
        },
      ],
    })
  })

  it('serializes every parameter style of the parameters-style document', async () => {
    const document = await loadOpenApi(example('3.0/json/parameters-style.json'))
    const runtime = createRuntime(createOpenApiRegistry(document, { baseUrl: server.url }))
    const args = { primitive: 'blue', array: ['blue', 'black', 'brown'], object: { R: 100, G: 200, B: 150 } }
    const sent = async (tool: string, values: Record<string, unknown> = args) => {
      const result = await runtime.callTool(tool, values)
      expect(result.isError, JSON.stringify(result)).toBeFalsy()
      return server.requests.at(-1) as Recorder['requests'][number]
    }
    expect((await sent('paths_matrix_exploded')).url).toBe(
      '/anything/path/matrix/;primitive=blue/;array=blue;array=black;array=brown/;R=100;G=200;B=150',
    )
    expect((await sent('paths_label_nonExploded')).url).toBe(
      '/anything/path/label/.blue/.blue,black,brown/.R,100,G,200,B,150',
    )
    expect((await sent('query_form_nonExploded')).url).toBe(
      '/anything/query/form?primitive=blue&array=blue,black,brown&object=R,100,G,200,B,150',
    )
    expect((await sent('query_deepObject_nonExploded', { object: args.object })).url).toBe(
      '/anything/query/deepObject?object%5BR%5D=100&object%5BG%5D=200&object%5BB%5D=150',
    )
    expect((await sent('headers_simple_exploded')).headers).toMatchObject({
      primitive: 'blue',
      array: 'blue,black,brown',
      object: 'R=100,G=200,B=150',
    })
    expect((await sent('cookies_form_nonExploded')).headers.cookie).toBe(
      'primitive=blue; array=blue,black,brown; object=R,100,G,200,B,150',
    )
  })
})
