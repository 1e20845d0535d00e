// `mcp-kit serve --openapi` on the wire, called with `mcp-kit cat`: a Stripe-like create whose
// `metadata` goes out as `metadata[k]=v` (the Payments API of tooling/fixtures logs each raw body);
// an answer off its document returned with its data (lenient) or refused in words about fields of
// the answer (--openapi-strict-responses); a 422 with its field errors; the header a caller
// passes winning over --openapi-header but not over --openapi-force-header; and per-API timeouts
// and answer limits, from flags and from a --config entry.
// @module-tag integration

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type PaymentsApi, startPaymentsApi } from '@mcp-kit/fixtures/payments-api'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { records, runCli, startServe, stopStarted } from '../../helpers/helpers.js'

const scratch = mkdtempSync(join(tmpdir(), 'mcp-kit-openapi-wire-'))
let payments: PaymentsApi
let slow: Server
let slowUrl = ''
const slowRequests: IncomingMessage['headers'][] = []

beforeAll(async () => {
  payments = await startPaymentsApi()
  // /hang never answers; /big answers 64 KiB; /echo answers with the headers it got.
  slow = createServer((request, response) => {
    slowRequests.push(request.headers)
    if (request.url?.startsWith('/hang')) return
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(request.url?.startsWith('/big') ? JSON.stringify({ data: 'x'.repeat(64 * 1024) }) : '{}')
  })
  await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve))
  slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`
  const operation = (operationId: string, parameters: unknown[] = []) => ({
    get: { operationId, parameters, responses: { 200: { description: 'ok' } } },
  })
  writeFileSync(
    join(scratch, 'limits.json'),
    JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'Limits', version: '1' },
      servers: [{ url: slowUrl }],
      paths: {
        '/hang': operation('hang'),
        '/big': operation('big'),
        '/echo': operation('echo', [{ name: 'X-Request-Id', in: 'header', schema: { type: 'string' } }]),
      },
    }),
  )
})

afterEach(stopStarted)

afterAll(async () => {
  await payments.close()
  slow.closeAllConnections()
  await new Promise((resolve) => slow.close(resolve))
  rmSync(scratch, { recursive: true, force: true })
})

describe('the Stripe-like Payments API', () => {
  it('creates a customer with metadata sent as metadata[k]=v', async () => {
    const { url } = await startServe(['--openapi', payments.specUrl, '--port', '0'])
    const created = await runCli([
      'cat',
      `mcp+${url}?tool=PostCustomers`,
      '--args',
      JSON.stringify({
        email: 'ann@example.com',
        metadata: { order_id: '6735', plan: 'gold' },
        expand: ['tax'],
      }),
    ])
    expect(created.code, created.stderr).toBe(0)
    expect(payments.requests.at(-1)?.body).toBe(
      'email=ann%40example.com&metadata%5Border_id%5D=6735&metadata%5Bplan%5D=gold&expand%5B0%5D=tax',
    )
    expect(records(created.stdout)).toEqual([
      expect.objectContaining({ metadata: { order_id: '6735', plan: 'gold' } }),
    ])
  })

  it('returns an answer off its document with its data, and refuses it when strict, speaking of fields of the answer', async () => {
    const lenient = await startServe(['--openapi', payments.specUrl, '--port', '0'])
    const read = await runCli([
      'cat',
      `mcp+${lenient.url}?tool=GetCustomersCustomer`,
      'customer=cus_1',
      '--raw',
    ])
    expect(read.code, read.stderr).toBe(0)
    const result = JSON.parse(read.stdout) as {
      structuredContent: unknown
      _meta: Record<string, { warnings: string[] }>
    }
    expect(result.structuredContent).toEqual({ id: 'cus_1', created: '2024-01-01', metadata: {} })
    expect(result._meta['io.github.mcp-kit/openapi']?.warnings).toContain(
      "field of the answer 'email' is missing",
    )
    await stopStarted()
    const strict = await startServe([
      '--openapi',
      payments.specUrl,
      '--openapi-strict-responses',
      '--port',
      '0',
    ])
    const refused = await runCli(['cat', `mcp+${strict.url}?tool=GetCustomersCustomer`, 'customer=cus_1'])
    expect(refused.code).toBe(1)
    expect(records(refused.stdout)).toEqual([
      {
        error: {
          code: 'tool_error',
          message: [
            "GET /v1/customers/{customer}: HTTP 200: the answer does not match the API's document:",
            "field of the answer 'email' is missing",
            'field of the answer \'created\' must be an integer (got "2024-01-01")',
          ].join('\n'),
        },
      },
    ])
  })

  it('says what a 422 says, field errors and all', async () => {
    const { url } = await startServe(['--openapi', payments.specUrl, '--port', '0'])
    const result = await runCli(['cat', `mcp+${url}?tool=PostCustomers`, 'email=not-an-address'])
    expect(result.code).toBe(1)
    const [record] = records(result.stdout) as Array<{ error: { message: string } }>
    expect(record?.error.message).toBe(
      'POST /v1/customers: HTTP 422 Unprocessable Entity: Validation Failed\n' +
        '{"message":"Validation Failed","errors":[{"resource":"Customer","field":"email","code":"invalid"}],"documentation_url":"https://docs.example.com/customers#create"}',
    )
  })
})

describe('headers', () => {
  it("a caller's header parameter wins over --openapi-header, and --openapi-force-header over both", async () => {
    const spec = join(scratch, 'limits.json')
    const configured = await startServe([
      '--openapi',
      spec,
      '--openapi-header',
      'X-Request-Id: configured',
      '--port',
      '0',
    ])
    await runCli(['cat', `mcp+${configured.url}?tool=echo`])
    expect(slowRequests.at(-1)?.['x-request-id']).toBe('configured')
    await runCli(['cat', `mcp+${configured.url}?tool=echo`, 'X-Request-Id=from-caller'])
    expect(slowRequests.at(-1)?.['x-request-id']).toBe('from-caller')
    await stopStarted()
    const forced = await startServe([
      '--openapi',
      spec,
      '--openapi-force-header',
      'X-Request-Id: forced',
      '--port',
      '0',
    ])
    await runCli(['cat', `mcp+${forced.url}?tool=echo`, 'X-Request-Id=from-caller'])
    expect(slowRequests.at(-1)?.['x-request-id']).toBe('forced')
  })
})

describe('limits per API', () => {
  it('--openapi-timeout and --openapi-max-response', async () => {
    const { url } = await startServe([
      '--openapi',
      join(scratch, 'limits.json'),
      '--openapi-timeout',
      '0.5',
      '--openapi-max-response',
      '1KiB',
      '--port',
      '0',
    ])
    const late = await runCli(['cat', `mcp+${url}?tool=hang`])
    expect(late.code).toBe(1)
    expect(late.stdout).toContain(`GET ${slowUrl}/hang: no answer within 0.5 s`)
    const big = await runCli(['cat', `mcp+${url}?tool=big`])
    expect(big.code).toBe(1)
    expect(big.stdout).toContain(`GET ${slowUrl}/big: the answer is larger than 1024 bytes`)
  })

  it('a --config entry\'s "timeout", "maxResponse", "strictResponses" and "forcedHeaders"', async () => {
    const config = join(scratch, 'gateway.json')
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          limits: {
            openapi: './limits.json',
            timeout: 0.5,
            maxResponse: '2KiB',
            forcedHeaders: { 'X-Request-Id': 'from-config' },
          },
          payments: { openapi: payments.specUrl, strictResponses: true },
        },
      }),
    )
    const { url } = await startServe(['--config', config, '--port', '0'])
    expect((await runCli(['cat', `mcp+${url}?tool=limits__hang`])).stdout).toContain('no answer within 0.5 s')
    expect((await runCli(['cat', `mcp+${url}?tool=limits__big`])).stdout).toContain('larger than 2048 bytes')
    await runCli(['cat', `mcp+${url}?tool=limits__echo`, 'X-Request-Id=from-caller'])
    expect(slowRequests.at(-1)?.['x-request-id']).toBe('from-config')
    const strict = await runCli(['cat', `mcp+${url}?tool=payments__GetCustomersCustomer`, 'customer=cus_2'])
    expect(strict.stdout).toContain("field of the answer 'email' is missing")
  })

  it('refuses a size it cannot read', async () => {
    const result = await runCli([
      'serve',
      '--openapi',
      join(scratch, 'limits.json'),
      '--openapi-max-response',
      'lots',
    ])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--openapi-max-response: cannot read "lots"; say e.g. 4MiB or 65536')
  })
})
