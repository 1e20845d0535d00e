// OpenAPI at the size of real APIs (GitHub's REST document from @octokit/openapi, 1,223
// operations): schemas shared where the document shares them, output schemas full, compact or
// none, the operations a user needs picked by tag and path, and `$ref`s resolved in one pass.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openApiDocuments } from '@mcp-kit/fixtures/openapi-documents'
import { createRuntime } from '@mcp-kit/server'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import {
  createOpenApiRegistry,
  loadOpenApi,
  type OpenApiDocument,
  OpenApiError,
  openApiTools,
} from '../../src/index.js'
import { example, type Recorder, startRecorder } from '../helpers/recorder.js'

type Schema = Record<string, unknown>

/** Every `description` and `examples` below the top level of a schema (shared subschemas once). */
function nestedProse(schema: unknown, seen = new Set<object>(), top = true): number {
  if (typeof schema !== 'object' || schema === null || seen.has(schema)) return 0
  seen.add(schema)
  let count = !top && !Array.isArray(schema) && ('description' in schema || 'examples' in schema) ? 1 : 0
  for (const [key, value] of Object.entries(schema)) {
    // The names of `properties` are not schemas; their values are.
    if (key === 'properties' && typeof value === 'object' && value !== null) {
      for (const item of Object.values(value)) count += nestedProse(item, seen, false)
    } else if (typeof value === 'object') count += nestedProse(value, seen, false)
  }
  return count
}

const listBytes = (tools: ReturnType<typeof openApiTools>) =>
  Buffer.byteLength(JSON.stringify(tools.map((tool) => ({ ...tool.definition, handler: undefined }))))

describe("GitHub's REST API", () => {
  let github: OpenApiDocument
  beforeAll(async () => {
    github = await loadOpenApi(openApiDocuments.github)
  })

  it('is one tool per operation, and a component many operations return is one object in all their schemas', () => {
    const tools = openApiTools(github, { outputSchemas: 'full' })
    expect(tools).toHaveLength(1223)
    const byName = new Map(tools.map((tool) => [tool.name, tool.definition]))
    // Both answer with a full-repository: the same converted properties, not two copies.
    const get = byName.get('repos_get')?.outputSchema as Schema
    const update = byName.get('repos_update')?.outputSchema as Schema
    expect(get.properties).toBeDefined()
    expect(get.properties).toBe(update.properties)
    expect(Object.isFrozen(get.properties)).toBe(true)
    // And `owner`, a parameter of hundreds of operations, is one schema object.
    const owners = new Set(
      tools
        .map((tool) => (tool.definition.inputSchema as { properties: Schema }).properties.owner)
        .filter(Boolean),
    )
    expect(owners.size).toBeLessThan(10)
  })

  it('output schemas: full as the document says, compact without nested prose, or none', () => {
    const full = openApiTools(github, { outputSchemas: 'full' })
    const compact = openApiTools(github, { outputSchemas: 'compact' })
    const none = openApiTools(github, { outputSchemas: 'none' })
    expect(none.every((tool) => tool.definition.outputSchema === undefined)).toBe(true)
    expect(
      openApiTools(github, { outputSchemas: false }).every((tool) => !tool.definition.outputSchema),
    ).toBe(true)
    const fullRepository = full.find((tool) => tool.name === 'repos_get')?.definition.outputSchema as Schema
    const compactRepository = compact.find((tool) => tool.name === 'repos_get')?.definition
      .outputSchema as Schema
    expect(nestedProse(fullRepository)).toBeGreaterThan(50)
    expect(nestedProse(compactRepository)).toBe(0)
    // The shape stays: the same properties, types and required names.
    expect(Object.keys(compactRepository.properties as Schema)).toEqual(
      Object.keys(fullRepository.properties as Schema),
    )
    expect(compactRepository.required).toEqual(fullRepository.required)
    const id = (compactRepository.properties as Record<string, Schema>).id
    expect(id?.type).toBe('integer')
    expect(id).not.toHaveProperty('description')
    expect(id).not.toHaveProperty('examples')
    // Input schemas are the same in every mode.
    expect(compact.map((tool) => tool.definition.inputSchema)).toEqual(
      full.map((tool) => tool.definition.inputSchema),
    )
    const [fullBytes, compactBytes, noneBytes] = [full, compact, none].map(listBytes) as [
      number,
      number,
      number,
    ]
    expect(compactBytes).toBeLessThan(fullBytes * 0.8)
    expect(noneBytes).toBeLessThan(compactBytes)
    expect(() => openApiTools(github, { outputSchemas: 'short' as never })).toThrow(OpenApiError)
  })

  it('picks operations by tag and by path prefix, and leaves out by either', () => {
    const names = (options: Parameters<typeof openApiTools>[1]) =>
      openApiTools(github, options).map((tool) => tool)
    const issues = names({ include: ['tag:issues'] })
    expect(issues.length).toBeGreaterThan(30)
    expect(issues.every((tool) => tool.tags.includes('issues'))).toBe(true)
    const repos = names({ include: ['path:/repos'] })
    expect(repos.length).toBeGreaterThan(400)
    expect(repos.every((tool) => tool.path === '/repos' || tool.path.startsWith('/repos/'))).toBe(true)
    // A prefix is whole path segments: /repositories is not under /repos.
    expect(repos.some((tool) => tool.path.startsWith('/repositories'))).toBe(false)
    expect(names({ include: ['path:/repositories'] }).length).toBeGreaterThan(0)
    const reposWithoutIssues = names({ include: ['path:/repos/'], exclude: ['tag:issues'] })
    expect(reposWithoutIssues.length).toBe(repos.filter((tool) => !tool.tags.includes('issues')).length)
    const either = names({ include: ['tag:gists', 'path:/users'] })
    expect(either.every((tool) => tool.tags.includes('gists') || tool.path.startsWith('/users'))).toBe(true)
  })
})

describe("the one-pass resolution gives the parser's document", () => {
  const tools = (spec: Record<string, unknown>) =>
    JSON.stringify(
      openApiTools(
        { spec, version: String(spec.openapi), title: '', source: undefined },
        { baseUrl: 'http://x' },
      ).map((tool) => ({ ...tool.definition, handler: undefined })),
    )

  it.each([
    ['GitHub', openApiDocuments.github],
    ['Stripe', openApiDocuments.stripe],
    ['the Petstore', example('3.0/json/petstore.json')],
    ['a document with circular schemas', example('3.0/json/schema-circular.json')],
    ['the 3.1 Train Travel API', example('3.1/yaml/train-travel.yaml')],
  ])('%s: the same tools as @readme/openapi-parser makes of it', { timeout: 60_000 }, async (_name, path) => {
    const { dereference } = await import('@readme/openapi-parser')
    const parsed = (await dereference(path, { dereference: { circular: 'ignore' } })) as Record<
      string,
      unknown
    >
    const loaded = await loadOpenApi(path)
    expect(tools(loaded.spec as Record<string, unknown>)).toBe(tools(parsed))
  })

  it("Stripe's schemas, which use one another in circles, stay a list a client can take", async () => {
    // Inlining every $ref whose target reaches a cycle would make this list grow without bound.
    const stripe = openApiTools(await loadOpenApi(openApiDocuments.stripe), {
      baseUrl: 'http://x',
      outputSchemas: 'full',
    })
    expect(stripe.length).toBeGreaterThan(400)
    expect(listBytes(stripe)).toBeLessThan(10 * 1024 * 1024)
  })
})

describe('a document whose $refs are its own', () => {
  const document = {
    openapi: '3.1.0',
    info: { title: 'Refs', version: '1' },
    servers: [{ url: 'https://api.example.com' }],
    paths: {
      '/nodes/{id}': {
        parameters: [{ $ref: '#/components/parameters/id' }],
        get: {
          operationId: 'getNode',
          responses: { 200: { $ref: '#/components/responses/node' } },
        },
        put: {
          operationId: 'putNode',
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } } },
          responses: { 200: { $ref: '#/components/responses/node' } },
        },
      },
      '/tree': {
        get: {
          operationId: 'getTree',
          responses: {
            200: {
              description: 'a tree',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Tree' } } },
            },
          },
        },
      },
    },
    components: {
      parameters: {
        id: { name: 'id', in: 'path', required: true, schema: { $ref: '#/components/schemas/Id' } },
      },
      responses: {
        node: {
          description: 'a node',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } },
        },
      },
      schemas: {
        Id: { type: 'string', pattern: '^[a-z]+$' },
        Node: {
          type: 'object',
          properties: {
            id: { $ref: '#/components/schemas/Id', description: 'its id' },
            label: { $ref: '#/components/schemas/Label' },
          },
        },
        Label: { $ref: '#/components/schemas/Text' },
        Text: { type: 'string', maxLength: 20 },
        Tree: {
          type: 'object',
          properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Tree' } } },
        },
      },
    },
  }

  it('replaces each by what it points to, keeps one that leads into a cycle, and lets keywords beside one win', async () => {
    const loaded = await loadOpenApi(document)
    const schemas = (loaded.spec.components as { schemas: Record<string, Schema> }).schemas
    const node = schemas.Node as { properties: Record<string, Schema> }
    // A chain ($ref to a $ref) ends at the schema; the same object wherever it is used.
    expect(node.properties.label).toBe(schemas.Text)
    expect(node.properties.id).toEqual({ description: 'its id', type: 'string', pattern: '^[a-z]+$' })
    const paths = loaded.spec.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>
    expect(paths['/nodes/{id}']?.get?.responses[200]).toBe(paths['/nodes/{id}']?.put?.responses[200])
    // A recursive schema keeps its $ref, where it recurs and where it is used.
    expect(
      (schemas.Tree as { properties: { children: { items: Schema } } }).properties.children.items,
    ).toEqual({
      $ref: '#/components/schemas/Tree',
    })
    const tools = openApiTools(loaded, { outputSchemas: 'full' })
    expect(tools.map((tool) => tool.name)).toEqual(['getNode', 'putNode', 'getTree'])
    expect(tools[0]?.definition.inputSchema).toEqual({
      type: 'object',
      properties: { id: { type: 'string', pattern: '^[a-z]+$' } },
      required: ['id'],
      additionalProperties: false,
    })
    expect(tools[0]?.definition.outputSchema).toEqual({
      type: 'object',
      properties: {
        id: { description: 'its id', type: 'string', pattern: '^[a-z]+$' },
        label: { type: 'string', maxLength: 20 },
      },
    })
    // What a recursive schema allows is "anything", described.
    expect(tools[2]?.definition.outputSchema).toEqual({
      type: 'object',
      properties: { result: { description: 'a Tree (recursive; not checked here)' } },
      required: ['result'],
    })
    // Not the caller's object: theirs keeps its $refs.
    expect(document.paths['/nodes/{id}'].parameters[0]).toEqual({ $ref: '#/components/parameters/id' })
  })

  it('a $ref that points to nothing is invalid_spec, naming it', async () => {
    const broken = structuredClone(document)
    broken.components.schemas.Label = { $ref: '#/components/schemas/Nope' }
    const error = await loadOpenApi(broken).catch((caught: unknown) => caught)
    expect(OpenApiError.isInstance(error)).toBe(true)
    expect((error as OpenApiError).code).toBe('invalid_spec')
    expect((error as Error).message).toMatch(/#\/components\/schemas\/Nope/)
  })

  it('a file that refers to another file still has its $refs resolved (by the parser)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'openapi-split-'))
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }))
    writeFileSync(join(folder, 'text.json'), JSON.stringify({ type: 'string', maxLength: 20 }))
    const split = structuredClone(document) as unknown as { components: { schemas: Record<string, unknown> } }
    split.components.schemas.Label = { $ref: './text.json' }
    writeFileSync(join(folder, 'split.json'), JSON.stringify(split))
    const loaded = await loadOpenApi(join(folder, 'split.json'))
    const schemas = (loaded.spec.components as { schemas: Record<string, Schema> }).schemas
    expect(schemas.Label).toEqual({ type: 'string', maxLength: 20 })
  })
})

describe('results do not depend on the output-schema mode', () => {
  let api: Recorder
  beforeAll(async () => {
    api = await startRecorder(() => ({ body: [{ id: 1 }, { id: 2 }] }))
  })
  afterAll(() => api.close())

  it('an array answer is { result } with and without a declared schema', async () => {
    const document = await loadOpenApi({
      openapi: '3.0.3',
      info: { title: 'List', version: '1' },
      paths: {
        '/items': {
          get: {
            operationId: 'listItems',
            responses: {
              200: {
                description: 'items',
                content: { 'application/json': { schema: { type: 'array', items: { type: 'object' } } } },
              },
            },
          },
        },
      },
    })
    const results = await Promise.all(
      (['full', 'compact', 'none', false] as const).map((outputSchemas) =>
        createRuntime(createOpenApiRegistry(document, { baseUrl: api.url, outputSchemas })).callTool(
          'listItems',
        ),
      ),
    )
    for (const result of results) expect(result).toEqual(results[0])
    expect(results[0]?.structuredContent).toEqual({ result: [{ id: 1 }, { id: 2 }] })
  })
})
