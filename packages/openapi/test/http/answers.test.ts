// 2xx answers off their document (lenient by default: the data, with warnings in `_meta`; strict:
// an error in words about fields of the answer), a 422 with its field errors, answers that stream
// past the size limit, descriptions that would repeat the summary. Against the Stripe-like
// Payments API of tooling/fixtures, whose customer answer lacks `email` and has `created` as text.

import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type PaymentsApi, startPaymentsApi } from '@mcp-kit/fixtures/payments-api'
import { createRuntime } from '@mcp-kit/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOpenApiRegistry, loadOpenApi, type OpenApiDocument, openApiTools } from '../../src/index.js'

let api: PaymentsApi
let document: OpenApiDocument

const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text

beforeAll(async () => {
  api = await startPaymentsApi()
  document = await loadOpenApi(api.specUrl)
})

afterAll(() => api.close())

describe('a 2xx answer off its document', () => {
  it('is returned with its data and warnings in _meta (lenient, the default)', async () => {
    const runtime = createRuntime(createOpenApiRegistry(document))
    const result = await runtime.callTool('GetCustomersCustomer', { customer: 'cus_9' })
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toEqual({ id: 'cus_9', created: '2024-01-01', metadata: {} })
    expect(JSON.parse(text(result))).toEqual({ id: 'cus_9', created: '2024-01-01', metadata: {} })
    expect(result._meta).toEqual({
      'io.github.mcp-kit/openapi': {
        warnings: [
          "field of the answer 'email' is missing",
          'field of the answer \'created\' must be an integer (got "2024-01-01")',
        ],
      },
    })
    // Not promised, so no client holds the answer to it.
    const tool = openApiTools(document).find((each) => each.name === 'GetCustomersCustomer')
    expect(tool?.definition.outputSchema).toBeUndefined()
  })

  it('is an error speaking of fields of the answer, not parameters, when strict', async () => {
    const runtime = createRuntime(createOpenApiRegistry(document, { strictResponses: true }))
    const result = await runtime.callTool('GetCustomersCustomer', { customer: 'cus_9' })
    expect(result.isError).toBe(true)
    expect(text(result)).toBe(
      [
        "GET /v1/customers/{customer}: HTTP 200: the answer does not match the API's document:",
        "field of the answer 'email' is missing",
        'field of the answer \'created\' must be an integer (got "2024-01-01")',
      ].join('\n'),
    )
    expect(text(result)).not.toContain('parameter')
  })

  it('that matches has no warning', async () => {
    const runtime = createRuntime(createOpenApiRegistry(document))
    const result = await runtime.callTool('PostCustomers', { email: 'cy@example.com' })
    expect(result.isError).toBeFalsy()
    expect(result._meta).toBeUndefined()
  })
})

it('a 422 carries its field errors', async () => {
  const runtime = createRuntime(createOpenApiRegistry(document))
  const result = await runtime.callTool('PostCustomers', { metadata: { plan: 'gold' } })
  expect(result.isError).toBe(true)
  expect(text(result)).toBe(
    'POST /v1/customers: HTTP 422 Unprocessable Entity: Validation Failed\n' +
      '{"message":"Validation Failed","errors":[{"resource":"Customer","field":"email","code":"missing_field"}],"documentation_url":"https://docs.example.com/customers#create"}',
  )
})

it('a description that starts with the summary is not repeated after it', () => {
  const tools = openApiTools(document)
  const description = (name: string) => tools.find((tool) => tool.name === name)?.definition.description
  expect(description('PostCustomers')).toBe('Create a customer. Metadata is kept as given.')
  expect(description('GetCustomersCustomer')).toBe('Retrieve a customer')
})

describe('an answer that streams past the limit', () => {
  let server: Server
  let sent = 0

  beforeAll(async () => {
    const chunk = Buffer.alloc(64 * 1024, 'x')
    server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' })
      const more = () => {
        while (!response.destroyed && response.write(chunk)) sent += chunk.length
        if (!response.destroyed) response.once('drain', more)
      }
      more()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  })

  afterAll(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })

  it('is refused at maxResponseBytes whatever it did not declare, and the connection dropped', async () => {
    const endless = await loadOpenApi({
      openapi: '3.1.0',
      info: { title: 'Endless', version: '1' },
      servers: [{ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }],
      paths: { '/stream': { get: { operationId: 'stream', responses: { 200: { description: 'ok' } } } } },
    })
    const runtime = createRuntime(createOpenApiRegistry(endless, { maxResponseBytes: 1024 * 1024 }))
    const result = await runtime.callTool('stream', {})
    expect(result.isError).toBe(true)
    expect(text(result)).toMatch(
      /^GET http:\/\/127\.0\.0\.1:\d+\/stream: the answer is larger than 1048576 bytes$/,
    )
    expect(sent).toBeLessThan(16 * 1024 * 1024)
  })
})
