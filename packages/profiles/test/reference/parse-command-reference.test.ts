import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ProfileError, parseCommandReference, resolveReference } from '../../src/index.js'
import { codeOf } from '../helpers/code-of.js'

describe('a command line after -- is a stdio server run without a shell', () => {
  it('the words are the program and its arguments, as they are', () => {
    const parsed = parseCommandReference(['node', 'server.js', '--port', '007', ''])
    expect(parsed).toEqual({
      type: 'command',
      command: ['node', 'server.js', '--port', '007', ''],
      query: { launchArgs: [], env: {}, params: {} },
      server: { transport: 'stdio', command: 'node', args: ['server.js', '--port', '007', ''] },
      operation: { kind: 'inspect' },
    })
  })

  it('the query picks the operation and carries arguments and environment, as a reference query does', () => {
    expect(parseCommandReference(['node', 's.js'], 'tool=echo&message=hi%0Athere').operation).toEqual({
      kind: 'callTool',
      name: 'echo',
      args: { message: 'hi\nthere' },
    })
    expect(parseCommandReference(['node', 's.js'], 'resource=demo://readme').operation).toEqual({
      kind: 'readResource',
      uri: 'demo://readme',
    })
    expect(parseCommandReference(['node', 's.js'], 'list=prompts&env.API_KEY=k').server.env).toEqual({
      API_KEY: 'k',
    })
  })

  it('shell syntax in arguments is just characters in argv elements', () => {
    const words = ['node', './$(id);x.js', 'a|b', '`id`', '> /tmp/x', '*']
    expect(parseCommandReference(words).server.args).toEqual(words.slice(1))
  })

  it('resolves to its own server, with nothing looked up', async () => {
    const parsed = parseCommandReference(['my-server', '--stdio'], 'tool=t')
    const resolved = await resolveReference(parsed)
    expect(resolved).toEqual({ reference: parsed, server: parsed.server, operation: parsed.operation })
  })
})

describe('hostile command lines are refused as the launch schemes are, with a one-line reason', () => {
  it.each([
    [[], ''],
    [[''], ''],
    [['-e', 'process.exit(7)'], ''],
    [['--require=/tmp/x.js', 'node'], ''],
    [['-'], ''],
    [['node\n'], ''],
    [['node\0'], ''],
    [['node', 'server.js\nevil'], ''],
    [['node', 'a\0b'], ''],
    [['node', 'a\u001bb'], ''],
    [['node server.js'], ''],
    [['node\tserver.js'], ''],
    [['$(touch /tmp/pwned)'], ''],
    [['`id`'], ''],
    [['pkg;rm', '-rf', '/'], ''],
    [['node|cat'], ''],
    [['node&&id'], ''],
    [['node>x'], ''],
    [["'node'"], ''],
    [['~/bin/server'], ''],
    [['node', 's.js'], 'command=--eval'],
    [['node', 's.js'], 'arg=x'],
    [['node', 's.js'], 'tool=x&a=1\nb'],
    [['node', 's.js'], 'env.X=a%00b'],
    [['node', 's.js'], 'tool=a&prompt=b'],
  ] as Array<[string[], string]>)('%j ?%j', (words, query) => {
    const message = codeOf(() => parseCommandReference(words, query))
    expect(message).toMatch(/^invalid_reference: /)
    expect(message).not.toContain('\n')
  })

  it('says why, and what to write instead', () => {
    expect(codeOf(() => parseCommandReference(['-e', 'x']))).toBe(
      `invalid_reference: the program "-e" starts with '-', which the launcher would read as an option`,
    )
    expect(codeOf(() => parseCommandReference(['node server.js']))).toContain(
      'contains a space: no shell runs it, so give the program and each argument as separate words',
    )
    expect(codeOf(() => parseCommandReference(['node', 'a\nb']))).toBe(
      'invalid_reference: argument 1 of the command contains a control character (newline (U+000A)) at position 1',
    )
  })

  it('any list of words: either exactly that argv, or an invalid_reference error on one line', () => {
    const word = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 8 }),
      fc.string({ unit: 'binary', maxLength: 8 }),
      fc.constantFrom('-e', '--', '$(id)', 'node', 'a b', '\n', '\0'),
    )
    fc.assert(
      fc.property(fc.array(word, { maxLength: 5 }), (words) => {
        let parsed: ReturnType<typeof parseCommandReference>
        try {
          parsed = parseCommandReference(words)
        } catch (error) {
          expect(ProfileError.isInstance(error) && error.code).toBe('invalid_reference')
          expect((error as Error).message).not.toContain('\n')
          return
        }
        expect([parsed.server.command, ...parsed.server.args]).toEqual(words)
        expect(words.join('')).not.toMatch(/[\u0000-\u001f\u007f]/)
        expect(words[0]).not.toMatch(/^-|^$|\s/)
      }),
    )
  })
})
