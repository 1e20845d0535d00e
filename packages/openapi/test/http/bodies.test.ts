// Request bodies as the document's media type and `encoding` say, against the Stripe-like Payments
// API of tooling/fixtures (its log holds each raw body): form fields with `deepObject`
// (`metadata[k]=v`, nested objects, arrays by index), multipart uploads with files from base64 or
// from the one directory the server was given, never from elsewhere; and answers decoded by their
// Content-Type.

import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type PaymentsApi, startPaymentsApi } from '@mcp-kit/fixtures/payments-api'
import { createRuntime, type Runtime } from '@mcp-kit/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOpenApiRegistry, loadOpenApi, openApiTools } from '../../src/index.js'
import { type Recorder, startRecorder } from '../helpers/recorder.js'

let api: PaymentsApi
let runtime: Runtime
const scratch = mkdtempSync(join(tmpdir(), 'openapi-bodies-'))
const uploads = join(scratch, 'uploads')

const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text

beforeAll(async () => {
  api = await startPaymentsApi()
  mkdirSync(uploads)
  writeFileSync(join(uploads, 'evidence.txt'), 'the receipt')
  writeFileSync(join(scratch, 'private.key'), 'PRIVATE KEY MATERIAL')
  symlinkSync(join(scratch, 'private.key'), join(uploads, 'link.txt'))
  const document = await loadOpenApi(api.specUrl)
  runtime = createRuntime(createOpenApiRegistry(document, { filesDirectory: uploads }))
})

afterAll(async () => {
  await api.close()
  rmSync(scratch, { recursive: true, force: true })
})

describe('application/x-www-form-urlencoded', () => {
  it("sends Stripe's deepObject fields as Stripe reads them: metadata[k]=v, nested objects, arrays by index", async () => {
    const result = await runtime.callTool('PostCustomers', {
      email: 'ann@example.com',
      metadata: { plan: 'gold', 'team name': 'a&b' },
      address: { line1: '1 Main St', geo: { lat: 52.5, lon: 13.4 } },
      expand: ['invoice_settings', 'tax'],
      tax_exempt: 'none',
    })
    expect(result.isError, text(result)).toBeFalsy()
    const sent = api.requests.at(-1)
    expect(sent?.headers['content-type']).toBe('application/x-www-form-urlencoded')
    expect(sent?.body.split('&')).toEqual([
      'email=ann%40example.com',
      'metadata%5Bplan%5D=gold',
      'metadata%5Bteam%20name%5D=a%26b',
      'address%5Bline1%5D=1%20Main%20St',
      'address%5Bgeo%5D%5Blat%5D=52.5',
      'address%5Bgeo%5D%5Blon%5D=13.4',
      'expand%5B0%5D=invoice_settings',
      'expand%5B1%5D=tax',
      'tax_exempt=none',
    ])
    // The API read it back as the nested values that were meant.
    expect(result.structuredContent).toMatchObject({
      metadata: { plan: 'gold', 'team name': 'a&b' },
      address: { line1: '1 Main St', geo: { lat: '52.5', lon: '13.4' } },
      expand: { 0: 'invoice_settings', 1: 'tax' },
    })
  })

  it('sends an empty string as Stripe unsets metadata with', async () => {
    await runtime.callTool('PostCustomers', { email: 'bo@example.com', metadata: '' })
    expect(api.requests.at(-1)?.body).toBe('email=bo%40example.com&metadata=')
  })
})

describe('multipart/form-data', () => {
  it('sends a file given in base64, and text and deepObject parts', async () => {
    const result = await runtime.callTool('PostFiles', {
      file: Buffer.from('%PDF-1.7 bytes').toString('base64'),
      purpose: 'dispute_evidence',
      file_link_data: { create: true },
    })
    expect(result.isError, text(result)).toBeFalsy()
    const body = api.requests.at(-1)?.body ?? ''
    expect(api.requests.at(-1)?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/)
    expect(body).toMatch(
      /name="file"; filename="file"\r\nContent-Type: application\/octet-stream\r\n\r\n%PDF-1\.7 bytes\r\n/,
    )
    expect(body).toContain('name="purpose"\r\n\r\ndispute_evidence\r\n')
    expect(body).toContain('name="file_link_data[create]"\r\n\r\ntrue\r\n')
  })

  it('sends @name from the upload directory, and nothing from outside it', async () => {
    const sent = await runtime.callTool('PostFiles', { file: '@evidence.txt', purpose: 'dispute_evidence' })
    expect(sent.isError, text(sent)).toBeFalsy()
    expect(api.requests.at(-1)?.body).toMatch(/filename="evidence.txt"\r\n[^\r]*\r\n\r\nthe receipt\r\n/)
    const before = api.requests.length
    for (const [file, said] of [
      ['@../private.key', 'is not in the directory files are sent from'],
      [`@${join(scratch, 'private.key')}`, 'is not in the directory files are sent from'],
      ['@link.txt', 'is not in the directory files are sent from'],
      ['@missing.txt', 'there is no file "missing.txt"'],
      ['not base64 at all!', 'neither base64 nor @name of a file'],
    ]) {
      const refused = await runtime.callTool('PostFiles', { file, purpose: 'dispute_evidence' })
      expect(refused.isError).toBe(true)
      expect(text(refused)).toContain(`parameter 'file': `)
      expect(text(refused)).toContain(said)
    }
    expect(api.requests.length).toBe(before)
    expect(JSON.stringify(api.requests)).not.toContain('PRIVATE KEY MATERIAL')
  })

  it('reads no file at all without an upload directory, and says how to give one', async () => {
    const bare = createRuntime(createOpenApiRegistry(await loadOpenApi(api.specUrl)))
    const refused = await bare.callTool('PostFiles', { file: '@evidence.txt', purpose: 'dispute_evidence' })
    expect(refused.isError).toBe(true)
    expect(text(refused)).toContain(
      "no file is read from the server's disk unless it was given a directory for them",
    )
  })

  it('describes file arguments by how they are given', async () => {
    const document = await loadOpenApi(api.specUrl)
    const file = (options: Parameters<typeof openApiTools>[1]) => {
      const tool = openApiTools(document, options).find((each) => each.name === 'PostFiles')
      const schema = tool?.definition.inputSchema as { properties: Record<string, { description?: string }> }
      return schema.properties.file?.description
    }
    expect(file({})).toBe('A file: its bytes in base64.')
    expect(file({ filesDirectory: uploads })).toBe(
      "A file: its bytes in base64, or '@name' of a file in the server's upload directory.",
    )
  })
})

describe('answers by Content-Type', () => {
  let other: Recorder

  beforeAll(async () => {
    other = await startRecorder((request) =>
      request.url === '/latin1'
        ? {
            headers: { 'content-type': 'text/plain; charset=iso-8859-1' },
            body: Buffer.from([0x63, 0x61, 0x66, 0xe9]),
          }
        : { headers: { 'content-type': 'application/octet-stream' }, body: Buffer.from([0, 1, 2, 255]) },
    )
  })

  afterAll(() => other.close())

  it('decodes text in its charset and returns bytes as an embedded resource', async () => {
    const document = await loadOpenApi({
      openapi: '3.1.0',
      info: { title: 'Types', version: '1' },
      servers: [{ url: other.url }],
      paths: {
        '/latin1': { get: { operationId: 'latin1', responses: { 200: { description: 'text' } } } },
        '/bytes': { get: { operationId: 'bytes', responses: { 200: { description: 'bytes' } } } },
      },
    })
    const types = createRuntime(createOpenApiRegistry(document))
    expect((await types.callTool('latin1', {})).content).toEqual([{ type: 'text', text: 'café' }])
    expect((await types.callTool('bytes', {})).content).toEqual([
      {
        type: 'resource',
        resource: { uri: `${other.url}/bytes`, mimeType: 'application/octet-stream', blob: 'AAEC/w==' },
      },
    ])
  })
})
