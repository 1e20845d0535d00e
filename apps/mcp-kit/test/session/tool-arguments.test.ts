// One call's arguments in process (session/call-arguments.ts, session/tool-arguments.ts): every
// source merged in order, strings coerced to the schema's types, every problem listed, reserved
// query keys kept only where the tool has such parameters, and names suggested for a typo.

import type { Session } from '@mcp-kit/client'
import type { RunningHttpServer } from '@mcp-kit/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseJsonArguments, parseKeyValues } from '../../src/session/call-arguments.js'
import type { ConnectionArguments } from '../../src/session/connection-flags.js'
import { openSession } from '../../src/session/open-session.js'
import { resolveTarget, type Target } from '../../src/session/reference.js'
import { findTool, suggest, toolCallArguments } from '../../src/session/tool-arguments.js'
import { startToolServer } from '../helpers/in-process-server.js'
import { defaultConnectionArguments, ioStub } from '../helpers/io-stub.js'

let server: RunningHttpServer
let session: Session
const io = ioStub()
const flags = defaultConnectionArguments() as unknown as ConnectionArguments

beforeAll(async () => {
  server = await startToolServer()
  const { resolved } = await resolveTarget({ reference: `mcp+${server.url}` }, io)
  session = await openSession(resolved, flags, io)
})
afterAll(async () => {
  await session.close()
  await server.close()
})

async function argumentsFor(reference: string, words: string[], json?: string) {
  const target: Target = await resolveTarget({ reference: `mcp+${server.url}${reference}` }, io, {
    reservedAsArguments: true,
  })
  const operation = target.resolved.operation
  if (operation.kind !== 'callTool') throw new Error('expected a tool call')
  const args = { ...flags, arguments: words, args: json, reservedArguments: target.reservedArguments }
  return toolCallArguments(session, operation, target.resolved, io, args, 'now')
}

describe('parsing the words', () => {
  it('key=value words: repeated keys make lists, arg: names a reserved key, __proto__ is data', () => {
    const parsed = parseKeyValues(['tag=a', 'tag=b', 'arg:tool=x', '__proto__=p'])
    expect(parsed).toEqual({ tag: ['a', 'b'], tool: 'x', ['__proto__']: 'p' })
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype)
    expect(() => parseKeyValues(['=x'])).toThrow(/expected key=value/)
    expect(() => parseJsonArguments('[1]')).toThrow(/must be a JSON object/)
    expect(() => parseJsonArguments('{')).toThrow(/not valid JSON/)
  })
})

describe('toolCallArguments', () => {
  it('merges query < --args < key=value and coerces strings to the schema', async () => {
    const { callArguments } = await argumentsFor(
      '?tool=echo&text=from-query&count=1',
      ['count=3'],
      '{"text":"from-json"}',
    )
    expect(callArguments).toEqual({ text: 'from-json', count: 3 })
  })

  it('lists every problem against the schema (invalid_arguments)', async () => {
    const failure = await argumentsFor('?tool=echo', ['count=0']).catch((error: unknown) => error)
    expect(failure).toMatchObject({ code: 'invalid_arguments' })
    expect(String((failure as Error).message)).toMatch(/text/)
    expect(String((failure as Error).message)).toMatch(/count/)
  })

  it('a reserved key after the tool is its argument when the tool has the parameter, else refused', async () => {
    const { callArguments } = await argumentsFor('?tool=generate&prompt=hi', [])
    expect(callArguments).toEqual({ prompt: 'hi' })
    const refused = await argumentsFor('?tool=echo&text=x&prompt=hi', []).catch((error: unknown) => error)
    expect(refused).toMatchObject({
      code: 'usage',
      message: expect.stringContaining("has no parameter 'prompt'"),
    })
  })

  it('a tool that is not there: tool_not_found, with the close names', async () => {
    const { resolved } = await resolveTarget({ reference: `mcp+${server.url}` }, io)
    await expect(findTool(session, 'ecko', resolved, io, flags)).rejects.toMatchObject({
      code: 'tool_not_found',
      message: expect.stringContaining("did you mean 'echo'"),
    })
    expect(suggest('generat', ['generate', 'echo'])).toEqual(['generate'])
  })
})
