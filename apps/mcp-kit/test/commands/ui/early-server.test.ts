// What `ui -- cmd` may start before the CLI has read the command line (commands/ui/early-server.ts):
// only what @mcp-kit/profiles' own check takes, so a command line the CLI refuses never runs.

import { parseCommandReference } from '@mcp-kit/profiles'
import fc from 'fast-check'
import { expect, it } from 'vitest'
import { plainCommandLine } from '../../../src/commands/ui/early-server.js'

const accepted = (words: string[]) => {
  try {
    parseCommandReference(words)
    return true
  } catch {
    return false
  }
}

it('starts early only what the CLI accepts, whatever the words', () => {
  const character = fc.constantFrom(...'aZ09_@%+=:,./-~ $;|&`"\'*?!#()<>{}[]\\\u0000\u001f\u007f\n\té')
  const word = fc.oneof(
    fc.string({ unit: character, maxLength: 12 }),
    fc.constantFrom('node', 'server.js', '-e', '--flag', 'python3', '/usr/bin/node', 'a b', ''),
  )
  fc.assert(
    fc.property(fc.array(word, { maxLength: 6 }), (words) => {
      if (plainCommandLine(words) !== undefined) expect(accepted(words)).toBe(true)
    }),
    { numRuns: 2000 },
  )
})

it('takes the usual command lines and leaves the odd ones to the CLI', () => {
  expect(plainCommandLine(['node', 'server.js', '--port', '3000', 'a b'])).toEqual({
    command: 'node',
    args: ['server.js', '--port', '3000', 'a b'],
  })
  expect(plainCommandLine(['/usr/bin/python3', '-m', 'server'])).toMatchObject({
    command: '/usr/bin/python3',
  })
  for (const odd of [['-e', 'x'], ['node;rm'], ['node server.js'], ['node', 'line\nbreak'], [], ['~/bin/s']])
    expect(plainCommandLine(odd)).toBeUndefined()
})
