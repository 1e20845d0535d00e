// @module-tag integration
// A client that declares `io.mcp-kit/upstream-hops` learns each call's upstream hop from the result's
// `_meta` (which upstream, method, name, how long), in both protocol eras; one that does not gets
// the result as before.

import { connect } from '@mcp-kit/client'
import { describe, expect, test } from 'vitest'
import { hopCapability, hopMetaKey } from '../../src/catalog/hop-report.js'
import { everything, fixtureUpstream, nodeServer, startGateway } from '../helpers/gateways.js'

describe('upstream hop reports', () => {
  for (const protocol of ['auto', '2025-11-25'] as const) {
    test(`${protocol}: reported when asked for, absent otherwise`, async () => {
      const { url } = await startGateway({
        upstreams: [
          { name: 'everything', server: everything, tools: ['echo'] },
          { name: 'fixture', server: nodeServer(fixtureUpstream) },
        ],
      })
      const asking = await connect(
        { transport: 'http', url },
        { protocol, experimentalCapabilities: { [hopCapability]: {} } },
      )
      const plain = await connect({ transport: 'http', url }, { protocol })
      try {
        const reported = await asking.callTool('everything__echo', { message: 'hi' })
        expect(reported._meta?.[hopMetaKey]).toEqual({
          upstream: 'everything',
          method: 'tools/call',
          name: 'echo',
          latencyMs: expect.any(Number),
        })
        expect((reported.content[0] as { text: string }).text).toBe('Echo: hi')
        const unreported = await plain.callTool('everything__echo', { message: 'hi' })
        expect(unreported._meta?.[hopMetaKey]).toBeUndefined()
        expect((unreported.content[0] as { text: string }).text).toBe('Echo: hi')
      } finally {
        await asking.close()
        await plain.close()
      }
    }, 60_000)
  }
})
