// Property-based checks for what hostile clients control: Accept, Host and Origin headers, and
// request bodies. Nothing they send may throw, crash the server, or leak a stack.
import fc from 'fast-check'
import { expect, test } from 'vitest'
import { negotiate } from '../../src/http/content-negotiation.js'
import { createRequestGuard, hostnameOf } from '../../src/http/guard/request-guard.js'
import { createDemoRegistry } from '../../src/registry/demo.js'
import { initialize, post, serve } from '../helpers/http.js'

/**
 * Strings of any code points (surrogates excepted), as fast-check's `unit: 'binary'` gives, made
 * from a number per character: that unit builds a table of every code point on first use, which
 * cost more CPU than the rest of this file.
 */
const anyString = (constraints: { maxLength?: number } = {}) =>
  fc.string({
    ...constraints,
    unit: fc
      .nat({ max: 0x10ffff - 0x800 })
      .map((index) => String.fromCodePoint(index < 0xd800 ? index : index + 0x800)),
  })

test('negotiate never throws and always gives booleans', () => {
  fc.assert(
    fc.property(anyString(), (accept) => {
      const result = negotiate(accept)
      expect(typeof result.json).toBe('boolean')
      expect(typeof result.sse).toBe('boolean')
      if (result.prefersSse) expect(result.sse).toBe(true)
    }),
  )
})

test('Host and Origin checks never throw; only loopback names pass by default', () => {
  const guard = createRequestGuard()
  fc.assert(
    fc.property(anyString(), (value) => {
      expect(() => hostnameOf(value)).not.toThrow()
      expect(() => guard.hostAllowed(value)).not.toThrow()
      expect(() => guard.originAllowed(value)).not.toThrow()
    }),
  )
  fc.assert(
    fc.property(fc.domain(), fc.option(fc.integer({ min: 1, max: 65_535 })), (domain, port) => {
      fc.pre(domain !== 'localhost')
      const host = port === null ? domain : `${domain}:${port}`
      expect(guard.hostAllowed(host)).toBe(false)
      expect(guard.originAllowed(`http://${host}`)).toBe(false)
    }),
  )
})

test('a bearer token check only accepts the exact token', () => {
  const guard = createRequestGuard({ token: 'correct-horse' })
  fc.assert(
    fc.property(anyString(), (candidate) => {
      fc.pre(candidate.trim() !== 'correct-horse')
      expect(guard.checkToken(`Bearer ${candidate}`)).not.toBe('ok')
    }),
  )
  expect(guard.checkToken('Bearer correct-horse')).toBe('ok')
})

test('arbitrary bodies in a live session: never a 5xx, never a stack, and the server keeps answering', async () => {
  const server = await serve(createDemoRegistry())
  const { headers } = await initialize(server.url)
  const bodies = fc.oneof(
    anyString({ maxLength: 200 }),
    fc.json({ maxDepth: 4 }),
    fc
      .record({
        jsonrpc: fc.constant('2.0'),
        id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 })),
        method: fc.constantFrom(
          'tools/call',
          'tools/list',
          'resources/read',
          'prompts/get',
          'completion/complete',
          'ping',
        ),
        params: fc.anything({ maxDepth: 3 }),
      })
      .map((message) => JSON.stringify(message)),
  )
  await fc.assert(
    fc.asyncProperty(bodies, async (body) => {
      const response = await post(server.url, body, headers)
      expect(response.status).toBeLessThan(500)
      expect(response.text).not.toMatch(/\n\s+at |node_modules/)
    }),
    { numRuns: 150 },
  )
  const alive = await post(
    server.url,
    {
      jsonrpc: '2.0',
      id: 'last',
      method: 'tools/call',
      params: { name: 'echo', arguments: { message: 'still here' } },
    },
    headers,
  )
  expect(alive.json).toMatchObject({ result: { content: [{ text: 'still here' }] } })
})
