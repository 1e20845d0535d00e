// The server and operation a command names (session/reference.ts), in process: the reference and
// the operation flags go to @mcp-kit/profiles as structure, and reserved query keys a chosen tool
// may take as arguments come back by name.

import { describe, expect, it } from 'vitest'
import { resolveTarget } from '../../src/session/reference.js'
import { ioStub } from '../helpers/io-stub.js'

const url = 'mcp+http://127.0.0.1:9/mcp'

describe('resolveTarget', () => {
  it('adds the operation flags to the reference, and keeps the text for messages', async () => {
    const target = await resolveTarget({ reference: url, tool: 'echo' }, ioStub())
    expect(target.resolved.operation).toMatchObject({ kind: 'callTool', name: 'echo' })
    expect(target.resolved.server).toMatchObject({ transport: 'http', url: 'http://127.0.0.1:9/mcp' })
    expect(target.text).toContain('tool=echo')
  })

  it('a command line after --, with a query before it', async () => {
    const target = await resolveTarget(
      { reference: '?tool=echo&text=hi', serverCommand: ['node', 'server.js', '--flag'] },
      ioStub(),
    )
    expect(target.resolved.server).toMatchObject({
      transport: 'stdio',
      command: 'node',
      args: ['server.js', '--flag'],
    })
    expect(target.resolved.operation).toMatchObject({ kind: 'callTool', name: 'echo', args: { text: 'hi' } })
    expect(target.text).toBe('?tool=echo&text=hi -- node server.js --flag')
  })

  it('reserved keys after a chosen tool come back as names to check against its parameters', async () => {
    const given = { reference: `${url}?tool=generate&prompt=hi` }
    const target = await resolveTarget(given, ioStub(), { reservedAsArguments: true })
    expect(target.reservedArguments).toEqual(['prompt'])
    expect(target.resolved.operation).toMatchObject({
      kind: 'callTool',
      name: 'generate',
      args: { prompt: 'hi' },
    })
    // Without the permission the same query names two operations: refused.
    await expect(resolveTarget(given, ioStub())).rejects.toMatchObject({ code: 'invalid_reference' })
  })

  it('an operation flag is never an argument, and a flag that disagrees with the query is refused', async () => {
    const typed = await resolveTarget({ reference: `${url}?tool=generate`, prompt: 'hi' }, ioStub(), {
      reservedAsArguments: true,
    }).catch((error: unknown) => error)
    expect(typed).toMatchObject({ code: 'invalid_reference' })
    await expect(resolveTarget({ reference: `${url}?tool=a`, tool: 'b' }, ioStub())).rejects.toMatchObject({
      code: 'invalid_reference',
    })
  })

  it('says what is missing or misplaced, as usage errors', async () => {
    await expect(resolveTarget({}, ioStub())).rejects.toMatchObject({ code: 'usage' })
    await expect(
      resolveTarget({ reference: '@demo', serverCommand: ['node', 'server.js'] }, ioStub()),
    ).rejects.toMatchObject({ code: 'usage', message: expect.stringContaining("starts with '?'") })
  })
})
