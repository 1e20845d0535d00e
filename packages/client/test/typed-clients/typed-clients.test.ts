// The runtime of generated typed clients, without a server: the fingerprint a module keeps, how
// live tools are compared with it, the drift message, and a profile's variables expanded on
// connect. (apps/mcp-kit/test/commands/generate/generate.test.ts runs generated modules against real servers.)

import { hashContract, hashTools, toolContract } from '@mcp-kit/schema'
import type { Tool } from '@modelcontextprotocol/client'
import { describe, expect, it } from 'vitest'
import { ClientError } from '../../src/errors.js'
import { describeDrift, driftVerdict, type SchemaPolicy } from '../../src/typed-clients/drift-policy.js'
import { compareGenerated, schemaFingerprint } from '../../src/typed-clients/schema-drift.js'
import { expandServer } from '../../src/typed-clients/variables.js'

const tool = (
  name: string,
  properties: Record<string, unknown>,
  required: string[] = [],
  outputSchema?: object,
): Tool =>
  ({
    name,
    inputSchema: { type: 'object', properties, required },
    ...(outputSchema === undefined ? {} : { outputSchema }),
  }) as Tool

const count = { type: 'object', properties: { total: { type: 'integer' } }, required: ['total'] }
const base = [
  tool('search', { gene: { type: 'string' } }, ['gene'], count),
  tool('lookup', { id: { type: 'integer' } }),
]
const source = {
  source: '@bio',
  server: { transport: 'stdio' as const, command: 'bio', args: [] },
  regenerate: 'mcp-kit generate @bio --out bio.ts',
}

describe('schema drift', () => {
  it("the fingerprint is the profile hash of the list and each tool's contract with its hash, in name order", async () => {
    const fingerprint = await schemaFingerprint(base)
    expect(fingerprint.schemaHash).toBe(hashTools(base))
    expect(fingerprint.tools).toEqual([
      {
        name: 'lookup',
        input: [['id', 'integer', false]],
        hash: hashContract(toolContract(base[1] as Tool)),
      },
      {
        name: 'search',
        input: [['gene', 'string', true]],
        output: [['total', 'integer', true]],
        hash: hashContract(toolContract(base[0] as Tool)),
      },
    ])
  })

  it('a tool named __proto__, constructor or toString is a tool like any other', async () => {
    const odd = [tool('__proto__', { a: { type: 'string' } }), tool('constructor', {}), tool('toString', {})]
    const fingerprint = await schemaFingerprint(odd)
    expect(fingerprint.tools.map((entry) => entry.name)).toEqual(['__proto__', 'constructor', 'toString'])
    const changed = [tool('__proto__', { a: { type: 'number' } }), tool('toString', {})]
    const drift = await compareGenerated(fingerprint, changed)
    expect(drift).toMatchObject({ changed: ['__proto__'], removed: ['constructor'], added: [] })
    expect(drift.changes.map((change) => [change.tool, change.kind])).toEqual([
      ['__proto__', 'parameter_type_changed'],
      ['constructor', 'tool_removed'],
    ])
  })

  it('descriptions do not count; added tools are listed apart and are no change', async () => {
    const fingerprint = await schemaFingerprint(base)
    const described = base.map((item) => ({ ...item, description: 'reworded' }))
    expect(await compareGenerated(fingerprint, described)).toEqual({
      changes: [],
      changed: [],
      removed: [],
      added: [],
    })
    const more = await compareGenerated(fingerprint, [...base, tool('summarize', {})])
    expect(more).toEqual({ changes: [], changed: [], removed: [], added: ['summarize'] })
  })

  it('a result field that changed type is a breaking change of its tool', async () => {
    const fingerprint = await schemaFingerprint(base)
    const live = [
      tool('search', { gene: { type: 'string' } }, ['gene'], {
        ...count,
        properties: { total: { type: 'string' } },
      }),
      base[1] as Tool,
    ]
    const drift = await compareGenerated(fingerprint, live)
    expect(drift.changed).toEqual(['search'])
    expect(drift.changes).toEqual([
      expect.objectContaining({ class: 'breaking', kind: 'output_field_type_changed', field: 'total' }),
    ])
    expect(describeDrift(source, drift)).toBe(
      "the tools of @bio changed since this module was generated: breaking: tool 'search': result field 'total' changed type from integer to string; regenerate it with: mcp-kit generate @bio --out bio.ts",
    )
  })

  it('policies: error refuses any change, breaking only breaking ones (naming the rest in its warning), warn none', async () => {
    const fingerprint = await schemaFingerprint(base)
    const optional = await compareGenerated(fingerprint, [
      tool('search', { gene: { type: 'string' }, year: { type: 'integer' } }, ['gene'], count),
      base[1] as Tool,
    ])
    const renamed = await compareGenerated(fingerprint, [
      tool('search', { symbol: { type: 'string' } }, ['symbol'], count),
      base[1] as Tool,
    ])
    const verdicts = (drift: typeof optional) =>
      (['error', 'breaking', 'warn', 'ignore'] as SchemaPolicy[]).map(
        (policy) => driftVerdict(source, drift, policy).refused,
      )
    expect(verdicts(optional)).toEqual([true, false, false, false])
    expect(verdicts(renamed)).toEqual([true, true, false, false])
    expect(driftVerdict(source, optional, 'breaking').message).toBe(
      "the tools of @bio changed since this module was generated, breaking none of its calls: non-breaking: tool 'search': optional parameter 'year' was added; regenerate it with: mcp-kit generate @bio --out bio.ts",
    )
    expect(driftVerdict(source, renamed, 'breaking').message).toContain(
      "breaking: tool 'search': parameter 'gene' was removed and 'symbol' added with the same type: possibly renamed",
    )
    expect(driftVerdict(source, optional, 'ignore').message).toBe('')
  })

  it("a server's names reach the message with their control characters escaped", async () => {
    const fingerprint = await schemaFingerprint([tool('a\u001b]0;x\u0007\u2028b', {})])
    const drift = await compareGenerated(fingerprint, [])
    expect(describeDrift(source, drift)).toContain("tool 'a\\u001b]0;x\\u0007\\u2028b' was removed")
  })
})

describe("a profile's variables", () => {
  it('are expanded from the variables given: ${NAME}, ${NAME:-default}, ${secret:KEY}, $${ literal', () => {
    const server = expandServer(
      {
        transport: 'stdio',
        command: '${TOOL_HOME}/server',
        args: ['--level=${LEVEL:-info}', 'price: $${cents}'],
        env: { TOKEN: '${secret:bio/token}' },
      },
      { TOOL_HOME: '/opt/bio', 'secret:bio/token': 's3cret' },
      'profile @bio',
    )
    expect(server).toEqual({
      transport: 'stdio',
      command: '/opt/bio/server',
      args: ['--level=info', 'price: ${cents}'],
      env: { TOKEN: 's3cret' },
    })
  })

  it('a missing one fails with missing_env naming it and where it is used', () => {
    const expand = () =>
      expandServer(
        {
          transport: 'http',
          url: 'https://example.com/mcp',
          headers: { Authorization: 'Bearer ${secret:api}' },
        },
        {},
        'profile @api',
      )
    expect(expand).toThrow(ClientError)
    expect(expand).toThrow(
      /^secret 'api' is not set \(profile @api uses it in headers\.Authorization\); pass it as connect\(\{ variables: \{ "secret:api": … \} \}\)$/,
    )
  })
})
