// The shell's word splitter reads arguments the way a POSIX shell quotes them: any words, quoted
// any of the ways a shell user would, come back as they were.

import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { splitWords } from '../../src/base/shell-words.js'

/** How a shell user may quote a word: single quotes, double quotes, or backslashes. */
function quote(word: string, style: 'single' | 'double' | 'backslash'): string {
  if (style === 'single') return `'${word.replace(/'/g, `'\\''`)}'`
  if (style === 'double') return `"${word.replace(/["\\]/g, (character) => `\\${character}`)}"`
  return word.replace(/./gsu, (character) => `\\${character}`)
}

describe('splitWords', () => {
  it('splits at blanks and honours quotes and backslashes', () => {
    expect(splitWords('  add a=1   b=2 ')).toEqual(['add', 'a=1', 'b=2'])
    expect(splitWords(`echo message="hello world" note='it''s' x=a\\ b`)).toEqual([
      'echo',
      'message=hello world',
      'note=its',
      'x=a b',
    ])
    expect(splitWords(`say text="a \\"quoted\\" \\\\ word" raw='$HOME \\n'`)).toEqual([
      'say',
      'text=a "quoted" \\ word',
      'raw=$HOME \\n',
    ])
    expect(splitWords(`call x=''`)).toEqual(['call', 'x='])
    expect(() => splitWords(`echo message="open`)).toThrow(/unclosed double quote/)
    expect(() => splitWords(`echo message='open`)).toThrow(/unclosed single quote/)
  })

  it('gives back any words, however each is quoted', () => {
    const word = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 })
    const style = fc.constantFrom('single' as const, 'double' as const, 'backslash' as const)
    fc.assert(
      fc.property(fc.array(fc.tuple(word, style), { minLength: 1, maxLength: 6 }), (words) => {
        const line = words.map(([text, how]) => quote(text, how)).join(' ')
        expect(splitWords(line)).toEqual(words.map(([text]) => text))
      }),
      { numRuns: 500 },
    )
  })
})
