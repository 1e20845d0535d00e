import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  formatReference,
  ProfileError,
  type ReferenceRequest,
  resolveReference,
  resolveReferenceRequest,
} from '../../src/index.js'

let home: string

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'mcp-kit-request-'))
  const dir = join(home, '.config', 'mcp-kit', 'profiles', 'gen')
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, '_meta.json'), JSON.stringify({ command: 'gen-server', args: ['--stdio'] }))
})

afterAll(async () => {
  await rm(home, { recursive: true, force: true })
})

const options = () => ({ cwd: home, homeDir: home, env: { HOME: home } })

function resolve(request: ReferenceRequest) {
  return resolveReferenceRequest(request, options())
}

async function refusal(request: ReferenceRequest): Promise<string> {
  try {
    await resolve(request)
  } catch (error) {
    if (ProfileError.isInstance(error)) return `${error.code}: ${error.message}`
    throw error
  }
  throw new Error('expected a ProfileError')
}

describe('the operation as fields', () => {
  it('a flag picks the operation; its value is data, whatever characters it has', async () => {
    const tool = await resolve({ reference: 'mcp+npx://pkg?message=hi', operation: { tool: 'a&prompt=b' } })
    expect(tool.resolved.operation).toEqual({ kind: 'callTool', name: 'a&prompt=b', args: { message: 'hi' } })
    expect(tool.ambiguous).toEqual([])
    const resource = await resolve({
      reference: 'mcp+npx://pkg',
      operation: { resource: 'file:///x?y=1&z=%41' },
    })
    expect(resource.resolved.operation).toEqual({ kind: 'readResource', uri: 'file:///x?y=1&z=%41' })
    const list = await resolve({ reference: '@gen', operation: { list: 'prompts' } })
    expect(list.resolved.operation).toEqual({ kind: 'listPrompts' })
    expect(list.resolved.server).toMatchObject({ command: 'gen-server', args: ['--stdio'] })
  })

  it('a command line takes its query apart from its words', async () => {
    const { resolved } = await resolve({
      command: ['node', 'server.js', 'tool=x'],
      query: '?message=hi',
      operation: { prompt: 'greet' },
    })
    expect(resolved.server).toEqual({ transport: 'stdio', command: 'node', args: ['server.js', 'tool=x'] })
    expect(resolved.operation).toEqual({ kind: 'getPrompt', name: 'greet', args: { message: 'hi' } })
  })

  it('the resolved reference prints back with the flag in its query', async () => {
    const { resolved } = await resolve({ reference: 'mcp+npx://pkg?n=1', operation: { tool: 'echo' } })
    expect(resolved.reference.type === 'naked' && formatReference(resolved.reference)).toBe(
      'mcp+npx://pkg?tool=echo&n=1',
    )
  })

  it('a flag and the reference naming the same operation alike is no conflict', async () => {
    const { resolved } = await resolve({ reference: 'mcp+npx://pkg?tool=echo', operation: { tool: 'echo' } })
    expect(resolved.operation).toEqual({ kind: 'callTool', name: 'echo', args: {} })
  })
})

describe('a flag and the reference that disagree are refused', () => {
  it.each<[ReferenceRequest, RegExp]>([
    [
      { reference: 'mcp+npx://pkg?tool=a', operation: { tool: 'b' } },
      /the tool is named twice.*tool=a and --tool b/,
    ],
    [
      { reference: '@gen/a', operation: { tool: 'b' } },
      /the tool is named twice.*'a' in the path and --tool b/,
    ],
    [
      { reference: 'mcp+npx://pkg?list=tools', operation: { list: 'prompts' } },
      /list=tools and --list prompts/,
    ],
    [
      { reference: 'mcp+npx://pkg', operation: { list: 'everything' } },
      /--list "everything" is not one of tools/,
    ],
    [{ reference: 'mcp+npx://pkg?tool=a', operation: { resource: 'r' } }, /choose one of tool, resource/],
    [{ command: ['node', 's.js'], query: 'prompt=p', operation: { prompt: 'q' } }, /prompt=p and --prompt q/],
    [{ reference: 'mcp+npx://pkg', command: ['node'] }, /a reference or a command line, not both/],
    [{ reference: 'mcp+npx://pkg', query: 'tool=x' }, /`query` goes with a command line/],
    [{}, /a server reference must be a string/],
  ])('%j', async (request, message) => {
    expect(await refusal(request)).toMatch(new RegExp(`^invalid_reference: .*${message.source}`))
  })
})

describe('reserved keys as the chosen tool arguments', () => {
  it('are answered as ambiguous when asked for, and are the tool arguments', async () => {
    for (const request of [
      { reference: 'mcp+npx://pkg?tool=generate&prompt=hi' },
      { reference: 'mcp+npx://pkg?prompt=hi', operation: { tool: 'generate' } },
      { command: ['node', 's.js'], query: 'prompt=hi', operation: { tool: 'generate' } },
    ]) {
      const answer = await resolve({ ...request, reservedAsArguments: true })
      expect(answer.ambiguous, JSON.stringify(request)).toEqual(['prompt'])
      expect(answer.resolved.operation).toEqual({
        kind: 'callTool',
        name: 'generate',
        args: { prompt: 'hi' },
      })
    }
    const path = await resolve({
      reference: '@gen/make?resource=r&list=tools&x=1',
      reservedAsArguments: true,
    })
    expect(path.ambiguous).toEqual(['resource', 'list'])
    expect(path.resolved.operation).toMatchObject({ args: { x: '1', resource: 'r', list: 'tools' } })
    expect(path.resolved.reference.type === 'profile' && formatReference(path.resolved.reference)).toBe(
      '@gen/make?x=1&arg:resource=r&arg:list=tools',
    )
  })

  it('without the option, two operations are refused as before', async () => {
    const message = await refusal({ reference: 'mcp+npx://pkg?prompt=hi', operation: { tool: 'generate' } })
    expect(message).toMatch(/choose one of tool, prompt.*write arg:prompt=hi/)
  })

  it('a flag is how the user names an operation, never an argument', async () => {
    const request = {
      reference: 'mcp+npx://pkg?tool=plain',
      operation: { prompt: 'hi' },
      reservedAsArguments: true,
    }
    expect(await refusal(request)).toMatch(/choose one of tool, prompt.*write arg:prompt=hi/)
  })

  it('only a chosen tool takes them: a prompt and a list stay two operations', async () => {
    const request = { reference: 'mcp+npx://pkg?prompt=p&list=tools', reservedAsArguments: true }
    expect(await refusal(request)).toMatch(/choose one of prompt, list/)
  })

  it('arg:NAME= is an argument of that name, and not ambiguous', async () => {
    const answer = await resolve({
      reference: 'mcp+npx://pkg?tool=generate&arg:prompt=hi',
      reservedAsArguments: true,
    })
    expect(answer.ambiguous).toEqual([])
    expect(answer.resolved.operation).toEqual({ kind: 'callTool', name: 'generate', args: { prompt: 'hi' } })
    const text = await resolveReference('mcp+npx://pkg?tool=generate&arg:prompt=hi&arg:list=x', options())
    expect(text.operation).toEqual({ kind: 'callTool', name: 'generate', args: { prompt: 'hi', list: 'x' } })
  })
})

describe('any fields', () => {
  it('a flag value is taken whole, or the request is refused with a ProfileError', async () => {
    const value = fc.oneof(
      fc.string(),
      fc.constantFrom('a&b', '?tool=x', 'arg:prompt=1', '__proto__', 'tools'),
    )
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          'mcp+npx://pkg',
          'mcp+npx://pkg?tool=t&prompt=p',
          '@gen/t?list=tools',
          'mcp+npx://pkg?a=1',
        ),
        fc.record({ tool: value, resource: value, prompt: value, list: value }, { requiredKeys: [] }),
        fc.boolean(),
        async (reference, operation, reservedAsArguments) => {
          let answer: Awaited<ReturnType<typeof resolve>>
          try {
            answer = await resolve({ reference, operation, reservedAsArguments })
          } catch (error) {
            expect(ProfileError.isInstance(error) && error.code).toBe('invalid_reference')
            return
          }
          const { operation: picked } = answer.resolved
          if (operation.tool !== undefined)
            expect(picked).toMatchObject({ kind: 'callTool', name: operation.tool })
          if (operation.prompt !== undefined)
            expect(picked).toMatchObject({ kind: 'getPrompt', name: operation.prompt })
          if (operation.resource !== undefined)
            expect(picked).toEqual({ kind: 'readResource', uri: operation.resource })
          if (!reservedAsArguments) expect(answer.ambiguous).toEqual([])
        },
      ),
      { numRuns: 200 },
    )
  })
})
