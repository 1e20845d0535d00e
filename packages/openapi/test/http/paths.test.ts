// Path parameters that would change which resource a request asks for, with the API's credentials
// attached: dot segments (`..`, and `%2e%2e`, which URL parsers read as `..` too), slashes and
// backslashes a server may decode, `?` and `#`, absolute URLs, control characters. Each is refused
// before any request, naming the parameter; ordinary values with dots still go through.

import { createRuntime, type Runtime } from '@mcp-kit/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOpenApiRegistry, loadOpenApi } from '../../src/index.js'
import { type Recorder, startRecorder } from '../helpers/recorder.js'

let api: Recorder
let runtime: Runtime

const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text

beforeAll(async () => {
  api = await startRecorder()
  const operation = (operationId: string, names: string[]) => ({
    operationId,
    security: [{ bearer: [] }],
    parameters: names.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
    responses: { 200: { description: 'ok' } },
  })
  const document = await loadOpenApi({
    openapi: '3.1.0',
    info: { title: 'Paths', version: '1' },
    servers: [{ url: `${api.url}/v1/tenants/acme` }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    paths: {
      '/items/{id}': { get: operation('getItem', ['id']) },
      '/files/{stem}{extension}': { get: operation('getFile', ['stem', 'extension']) },
      '/labels/{label}/x': {
        get: {
          ...operation('getLabel', []),
          parameters: [
            { name: 'label', in: 'path', required: true, style: 'label', schema: { type: 'string' } },
          ],
        },
      },
    },
  })
  runtime = createRuntime(createOpenApiRegistry(document, { credentials: { bearer: 'SECRET-TOKEN' } }))
})

afterAll(() => api.close())

describe('a path parameter', () => {
  it.each([
    ['..', 'the path segment would be ".."'],
    ['.', 'the path segment would be "."'],
    ['%2e%2e', undefined],
    ['../../admin', "holds '/'"],
    ['a/b', "holds '/'"],
    ['..\\admin', "holds '\\'"],
    ['x?admin=1', "holds '?'"],
    ['x#y', "holds '#'"],
    ['https://evil.example/steal', "holds '/'"],
    ['line\nbreak', 'holds a control character'],
  ])('%j is refused before any request, naming the parameter', async (value, said) => {
    const before = api.requests.length
    const result = await runtime.callTool('getItem', { id: value })
    if (said === undefined) {
      // Percent signs are encoded: the server receives the text `%2e%2e`, one ordinary segment.
      expect(api.requests.at(-1)?.url).toBe('/v1/tenants/acme/items/%252e%252e')
      return
    }
    expect(result.isError).toBe(true)
    expect(text(result)).toContain("parameter 'id'")
    expect(text(result)).toContain(said)
    expect(text(result)).toContain('nothing was sent')
    expect(api.requests.length).toBe(before)
  })

  it('is refused when two of them make a dot segment together', async () => {
    const before = api.requests.length
    const result = await runtime.callTool('getFile', { stem: '.', extension: '.' })
    expect(result.isError).toBe(true)
    expect(text(result)).toContain("parameter 'stem', 'extension': the path segment would be \"..\"")
    expect(api.requests.length).toBe(before)
  })

  it('with dots that make no dot segment goes through, under the base path', async () => {
    for (const [tool, args, url] of [
      ['getItem', { id: 'a.b' }, '/v1/tenants/acme/items/a.b'],
      ['getItem', { id: '...' }, '/v1/tenants/acme/items/...'],
      ['getFile', { stem: 'report', extension: '.pdf' }, '/v1/tenants/acme/files/report.pdf'],
      ['getLabel', { label: '..' }, '/v1/tenants/acme/labels/.../x'],
    ] as const) {
      const result = await runtime.callTool(tool, args)
      expect(result.isError, text(result)).toBeFalsy()
      expect(api.requests.at(-1)?.url).toBe(url)
      expect(api.requests.at(-1)?.headers.authorization).toBe('Bearer SECRET-TOKEN')
    }
  })
})
