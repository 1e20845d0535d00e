import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { describeServer, formatReference, ProfileError, parseReference } from '../../src/index.js'

describe('formatReference', () => {
  it.each([
    'mcp+uvx://biomcp-python/biomcp?command=run&tool=search&gene=BRAF',
    'mcp+npx://@upstash/context7-mcp@latest?tool=resolve&libraryName=fastapi',
    'mcp+node:///abs/server.js?list=tools',
    'mcp+python://./my%20server.py?resource=memo%3A%2F%2Fa',
    'mcp+https://example.com/mcp?prompt=greet&name=Ada',
    '@biomcp/search?gene=BRAF&gene=TP53&arg:tool=x',
    '@biomcp?env.TOKEN=abc&arg=--fast',
  ])('round-trips %s', (reference) => {
    const parsed = parseReference(reference)
    expect(parseReference(formatReference(parsed))).toEqual(parsed)
  })

  it('escapes reserved argument names with arg:', () => {
    const parsed = parseReference('mcp+npx://pkg?tool=t&arg:list=1&arg:env.PATH=2')
    expect(formatReference(parsed)).toBe('mcp+npx://pkg?tool=t&arg:list=1&arg:env.PATH=2')
  })

  it('encodes characters that would change the meaning', () => {
    const parsed = parseReference('mcp+npx://pkg?tool=t&q=a%26b%3Dc%25d%3Fe%23f')
    expect(formatReference(parsed)).toBe('mcp+npx://pkg?tool=t&q=a%26b%3Dc%25d%3Fe%23f')
  })
})

describe('describeServer', () => {
  it('quotes arguments for people to read', () => {
    expect(
      describeServer({ transport: 'stdio', command: 'node', args: ['./my server.js', "it's", '--x=1'] }),
    ).toBe(`node './my server.js' 'it'\\''s' --x=1`)
    expect(describeServer({ transport: 'http', url: 'http://127.0.0.1:1/mcp' })).toBe(
      'http://127.0.0.1:1/mcp',
    )
  })
})

// --- property-based tests -------------------------------------------------------------------

const reservedKeys = ['tool', 'resource', 'prompt', 'list', 'command', 'arg']
const anyText = fc.string({ unit: 'grapheme', maxLength: 12 })
const argumentName = fc.oneof(
  anyText.filter((name) => name !== ''),
  fc.constantFrom(...reservedKeys, 'env.X', 'arg:y', '__proto__'),
)
const argumentValue = fc.oneof(anyText, fc.array(anyText, { minLength: 2, maxLength: 3 }))
const toolArguments = fc.dictionary(argumentName, argumentValue, { maxKeys: 5 })
const safeWord = fc.stringMatching(/^[a-z](?:[a-z0-9-]{0,9}[a-z0-9])?$/)

const nakedPrefix = fc.oneof(
  safeWord.map((name) => `mcp+npx://${name}`),
  fc.tuple(safeWord, safeWord).map(([pkg, command]) => `mcp+uvx://${pkg}/${command}`),
  safeWord.map((name) => `mcp+node://./${name}.js`),
  safeWord.map((name) => `mcp+python:///srv/${name}.py`),
  safeWord.map((name) => `mcp+http://127.0.0.1:9/${name}`),
  safeWord.map((name) => `@${name}`),
)

function buildReference(prefix: string, tool: string, args: Record<string, string | string[]>): string {
  const encode = (text: string) => encodeURIComponent(text)
  const pairs = [`tool=${encode(tool)}`]
  for (const [name, value] of Object.entries(args)) {
    const key =
      reservedKeys.includes(name) || name.startsWith('env.') || name.startsWith('arg:') ? `arg:${name}` : name
    for (const item of Array.isArray(value) ? value : [value]) pairs.push(`${encode(key)}=${encode(item)}`)
  }
  return `${prefix}?${pairs.join('&')}`
}

describe('parser properties', () => {
  it('throws nothing but ProfileError, whatever the input', () => {
    const input = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 80 }),
      fc
        .tuple(
          fc.constantFrom('mcp+npx://', 'mcp+uvx://', 'mcp+node://', 'mcp+http://', '@', 'mcp+https://'),
          fc.string({ unit: 'binary', maxLength: 60 }),
        )
        .map(([scheme, rest]) => scheme + rest),
      fc
        .tuple(nakedPrefix, fc.string({ unit: 'binary', maxLength: 60 }))
        .map(([prefix, rest]) => `${prefix}?${rest}`),
    )
    fc.assert(
      fc.property(input, (text) => {
        try {
          parseReference(text)
        } catch (error) {
          if (!ProfileError.isInstance(error)) throw error
          expect(error.code).toBe('invalid_reference')
          expect(error.message).not.toMatch(/\n/)
        }
      }),
      { numRuns: 3000 },
    )
  })

  it('never puts tool arguments into the launch command', () => {
    fc.assert(
      fc.property(nakedPrefix, safeWord, toolArguments, (prefix, tool, args) => {
        const withArguments = parseReference(buildReference(prefix, tool, args))
        const without = parseReference(`${prefix}?tool=${tool}`)
        // The launch spec is exactly what it is without the arguments...
        if (withArguments.type === 'naked' && without.type === 'naked')
          expect(withArguments.server).toEqual(without.server)
        // ...and every argument arrived as data of the tool call.
        expect(withArguments.operation).toEqual({ kind: 'callTool', name: tool, args })
      }),
      { numRuns: 1000 },
    )
  })

  it('round-trips everything it can print', () => {
    const queryText = fc.array(
      fc.oneof(
        fc
          .tuple(fc.constantFrom('tool', 'prompt', 'resource'), anyText)
          .map(([key, value]) => `${key}=${encodeURIComponent(value)}`),
        fc.constantFrom('list=tools', 'list=prompts', 'command=run', 'arg=--x', 'env.TOKEN=a%20b'),
        fc
          .tuple(argumentName, anyText)
          .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`),
      ),
      { maxLength: 5 },
    )
    fc.assert(
      fc.property(nakedPrefix, queryText, (prefix, pairs) => {
        let parsed: ReturnType<typeof parseReference>
        try {
          parsed = parseReference(`${prefix}?${pairs.join('&')}`)
        } catch (error) {
          if (ProfileError.isInstance(error)) return // not everything generated is a valid reference
          throw error
        }
        expect(parseReference(formatReference(parsed))).toEqual(parsed)
      }),
      { numRuns: 2000 },
    )
  })
})
