// The runtime of generated typed clients, without a server: the fingerprint a module keeps, how
// live tools are compared with it, the drift message, and a profile's variables expanded on
// connect. (apps/mcp-kit/test/generate.test.ts runs generated modules against real servers.)

import { hashTools } from '@mcp-kit/schema'
import type { Tool } from '@modelcontextprotocol/client'
import { describe, expect, it } from 'vitest'
import { ClientError } from '../src/errors.js'
import { describeDrift } from '../src/generated/open-generated.js'
import { compareGenerated, schemaFingerprint } from '../src/generated/schema-drift.js'
import { expandServer } from '../src/generated/variables.js'

const tool = (name: string, properties: Record<string, unknown>, required: string[] = []): Tool =>
  ({ name, inputSchema: { type: 'object', properties, required } }) as Tool

const base = [
  tool('search', { gene: { type: 'string' } }, ['gene']),
  tool('lookup', { id: { type: 'integer' } }),
]

describe('schema drift', () => {
  it('the fingerprint is the profile hash of the list and a short hash per tool', async () => {
    const fingerprint = await schemaFingerprint(base)
    expect(fingerprint.schemaHash).toBe(hashTools(base))
    expect(Object.keys(fingerprint.tools)).toEqual(['lookup', 'search'])
    expect(fingerprint.tools.search).toBe(hashTools([base[0] as Tool]).slice(7, 23))
  })

  it('names changed and removed tools; added ones are listed apart; descriptions do not count', async () => {
    const fingerprint = await schemaFingerprint(base)
    const described = base.map((item) => ({ ...item, description: 'reworded' }))
    expect(await compareGenerated(fingerprint, described)).toEqual({ changed: [], removed: [], added: [] })
    const live = [
      tool('search', { gene: { type: 'string' }, year: { type: 'integer' } }, ['gene', 'year']),
      tool('summarize', {}),
    ]
    const drift = await compareGenerated(fingerprint, live)
    expect(drift).toEqual({ changed: ['search'], removed: ['lookup'], added: ['summarize'] })
    const generated = {
      ...fingerprint,
      source: '@bio',
      server: { transport: 'stdio' as const, command: 'bio', args: [] },
      regenerate: 'mcp-kit generate @bio --out bio.ts',
    }
    expect(describeDrift(generated, drift)).toBe(
      'the tools of @bio changed since this module was generated: "search" (changed), "lookup" (removed); regenerate it with: mcp-kit generate @bio --out bio.ts',
    )
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
