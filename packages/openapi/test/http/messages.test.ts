// What a tool says about the API's answers: never a secret the server holds for the API (an API
// key in the query that comes back in a redirect's Location, an error body that echoes the request
// URL, an answer that echoes the Authorization header), neither in results nor in traces; no
// terminal escapes or invisible and bidirectional controls, for every client; and an error's whole
// body, so field errors reach the model.

import { createRuntime, type TraceEntry } from '@mcp-kit/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOpenApiRegistry, loadOpenApi } from '../../src/index.js'
import { type Answer, type Recorded, type Recorder, startRecorder } from '../helpers/recorder.js'

let api: Recorder
let answer: (request: Recorded) => Answer = () => ({})
const secret = 'sk live/KEY+42 ü'

const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text

async function runtimeFor(traces: TraceEntry[] = []) {
  const document = await loadOpenApi({
    openapi: '3.1.0',
    info: { title: 'Echo', version: '1' },
    servers: [{ url: `${api.url}/v1` }],
    components: {
      securitySchemes: {
        queryKey: { type: 'apiKey', in: 'query', name: 'key' },
        basic: { type: 'http', scheme: 'basic' },
      },
    },
    paths: {
      '/things': {
        get: {
          operationId: 'things',
          security: [{ queryKey: [] }],
          responses: { 200: { description: 'ok' } },
        },
      },
      '/basic': {
        get: { operationId: 'basic', security: [{ basic: [] }], responses: { 200: { description: 'ok' } } },
      },
    },
  })
  const registry = createOpenApiRegistry(document, {
    credentials: { queryKey: secret, basic: { username: 'ann', password: 'hunter2-password' } },
    headers: { 'X-Api-Token': 'static-header-token' },
  })
  return createRuntime(registry, { onTrace: (entry) => traces.push(entry), serverName: 'echo' })
}

/** Every form a secret could take on the way back. */
function leaks(value: unknown): string[] {
  const all = JSON.stringify(value)
  const forms = [
    secret,
    encodeURIComponent(secret),
    new URLSearchParams({ k: secret }).toString().slice(2),
    'hunter2-password',
    Buffer.from('ann:hunter2-password').toString('base64'),
    'static-header-token',
  ]
  return forms.filter((form) => all.includes(form) || all.includes(JSON.stringify(form).slice(1, -1)))
}

beforeAll(async () => {
  api = await startRecorder((request) => answer(request))
})

afterAll(() => api.close())

describe('secrets', () => {
  it('never come back in a redirect, an echoed URL, an echoed header, or a trace', async () => {
    const traces: TraceEntry[] = []
    const runtime = await runtimeFor(traces)
    const results = []
    answer = (request) => ({
      status: 302,
      headers: { location: `${api.url}/login?next=${request.url}` },
      body: '',
    })
    results.push(await runtime.callTool('things', {}))
    expect(api.requests.at(-1)?.url).toBe(
      `/v1/things?key=${new URLSearchParams({ k: secret }).toString().slice(2).replace(/\+/g, '%20')}`,
    )
    answer = (request) => ({ status: 400, body: { message: `bad request ${request.url}`, url: request.url } })
    results.push(await runtime.callTool('things', {}))
    answer = (request) => ({
      status: 502,
      headers: { 'content-type': 'text/plain' },
      body: `upstream failed for ${request.url}`,
    })
    results.push(await runtime.callTool('things', {}))
    answer = (request) => ({ body: { url: request.url, headers: request.headers } })
    results.push(await runtime.callTool('things', {}))
    results.push(await runtime.callTool('basic', {}))
    answer = () => ({})
    expect(text(results[0]!)).toMatch(
      /^GET \/things: HTTP 302 Found: redirected to .*\/login\?next=\/v1\/things\?key=\[redacted\] \(redirects are not followed\)$/,
    )
    expect(text(results[1]!)).toContain('key=[redacted]')
    expect(leaks(results)).toEqual([])
    expect(traces.filter((entry) => entry.ok === false)).toHaveLength(3)
    expect(leaks(traces)).toEqual([])
  })
})

describe('what an API says in an error', () => {
  it('reaches every client without escape sequences, controls, or bidirectional and invisible characters', async () => {
    const runtime = await runtimeFor()
    const hostile =
      'denied \u001b]8;;https://evil.example\u0007click here\u001b]8;;\u0007 \u001b[2J\u001b[31mred\u001b[0m' +
      ' \u202eevil\u202c \u2066iso\u2069 zero\u200bwidth\u200f bom\ufeff sep\u2028arator c1\u009b31m bell\u0007 cr\r'
    const answers: Answer[] = [
      { status: 403, headers: { 'content-type': 'text/plain' }, body: hostile },
      { status: 403, body: { message: hostile, detail: { reason: hostile } } },
      // A header holds no ESC (Node refuses it), but C1 controls, as latin1, pass.
      { status: 302, headers: { location: 'https://x.example/denied\u009b2J\u0085' }, body: '' },
    ]
    for (const body of answers) {
      answer = () => body
      const said = text(await runtime.callTool('things', {}))
      expect(said, said).not.toMatch(
        /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/,
      )
      expect(said).toContain('denied')
      expect(said).not.toContain('https://evil.example')
    }
    answer = () => ({})
  })

  it('carries its whole body (field errors and all), capped', async () => {
    const runtime = await runtimeFor()
    answer = () => ({
      status: 422,
      body: { message: 'Validation Failed', errors: [{ field: 'name', code: 'missing_field' }] },
    })
    expect(text(await runtime.callTool('things', {}))).toBe(
      'GET /things: HTTP 422 Unprocessable Entity: Validation Failed\n{"message":"Validation Failed","errors":[{"field":"name","code":"missing_field"}]}',
    )
    answer = () => ({ status: 500, body: { message: 'boom', trace: 'x'.repeat(20_000) } })
    const long = text(await runtime.callTool('things', {}))
    expect(long.length).toBeLessThan(9_500)
    expect(long).toMatch(/… \(\d+ more characters\)$/)
    // A body that only repeats the message and the status adds nothing.
    answer = () => ({ status: 404, body: { statusCode: 404, error: 'Not Found', message: 'no such thing' } })
    expect(text(await runtime.callTool('things', {}))).toBe('GET /things: HTTP 404 Not Found: no such thing')
    answer = () => ({})
  })
})
