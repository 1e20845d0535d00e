// The terminal sanitizer as a property over random strings rich in what it is about (controls,
// bidi controls, invisible format characters, separators, tag characters, lone surrogates among
// ordinary text): each unsafe character comes out as its visible escape and everything else as it
// was — checked against a model written with code point numbers, not with the sanitizer's own
// classes — and the one rule (unsafe-characters.ts) is the same file in the gateway.

import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sanitizeLine, sanitizeText } from '../../src/output/sanitize.js'

/** The code points shown escaped in text (tab and line feed are kept there, escaped on a line). */
const escapedInText: Array<[number, number]> = [
  [0x00, 0x08],
  [0x0b, 0x1f],
  [0x7f, 0x9f],
  [0xad, 0xad],
  [0x061c, 0x061c],
  [0x180e, 0x180e],
  [0x200b, 0x200f],
  [0x2028, 0x202e],
  [0x2060, 0x2064],
  [0x2066, 0x206f],
  [0xd800, 0xdfff], // lone surrogates (a pair is one code point above U+FFFF)
  [0xfeff, 0xfeff],
  [0xfff9, 0xfffb],
  [0xe0000, 0xe007f],
]

const named: Record<number, string> = { 9: '\\t', 10: '\\n', 13: '\\r' }

function model(text: string, line: boolean): string {
  let result = ''
  for (const character of text) {
    const code = character.codePointAt(0) as number
    const escaped =
      (line && (code === 0x09 || code === 0x0a)) ||
      escapedInText.some(([low, high]) => code >= low && code <= high)
    if (!escaped) result += character
    else if (named[code] !== undefined) result += named[code]
    else if (code < 0x80) result += `\\x${code.toString(16).padStart(2, '0')}`
    else if (code <= 0xffff) result += `\\u${code.toString(16).padStart(4, '0')}`
    else result += `\\u{${code.toString(16)}}`
  }
  return result
}

const interesting = [
  ...escapedInText.flatMap(([low, high]) => [low, high, Math.floor((low + high) / 2)]),
  0x09,
  0x0a,
  0x20,
  0x5c,
  0x2065,
  0x2070,
  0x200a,
  0xe0080,
  0x1f600,
]
const codePoint = fc.oneof(
  fc.constantFrom(...interesting),
  fc.integer({ min: 0x20, max: 0x7e }),
  fc.integer({ min: 0, max: 0x10ffff }),
)
const hostileText = fc.array(codePoint, { maxLength: 40 }).map((codes) => String.fromCodePoint(...codes))

describe('sanitizeText and sanitizeLine, over random strings', () => {
  it('show every unsafe character escaped and every other as it is', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        expect(sanitizeText(text)).toBe(model(text, false))
        expect(sanitizeLine(text)).toBe(model(text, true))
      }),
      { numRuns: 2000 },
    )
  })
})

it('the rule is one file, the same in the gateway', () => {
  const here = readFileSync(new URL('../../src/output/unsafe-characters.ts', import.meta.url), 'utf8')
  const gateway = readFileSync(
    new URL('../../../../packages/gateway/src/upstream/unsafe-characters.ts', import.meta.url),
    'utf8',
  )
  expect(here).toBe(gateway)
})
