// The rule for an upstream's descriptive text, as a property over random strings rich in the
// characters it is about: what comes out is what went in minus every control, bidi control,
// invisible format character and tag character, with line and paragraph separators as spaces —
// checked against a model written with code point numbers, not with the rule's own classes —
// and cleaning twice changes nothing more. Found by it: lone surrogate halves around a removed
// character joined into a tag character that a second cleaning removed.

import fc from 'fast-check'
import { expect, test } from 'vitest'
import { cleanText } from '../../src/upstream/upstream-text.js'

/** The code points the rule removes, as numbers. */
const removed: Array<[number, number]> = [
  [0x00, 0x08],
  [0x0b, 0x1f],
  [0x7f, 0x9f],
  [0xad, 0xad],
  [0x061c, 0x061c],
  [0x180e, 0x180e],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x2064],
  [0x2066, 0x206f],
  [0xfeff, 0xfeff],
  [0xfff9, 0xfffb],
  [0xe0000, 0xe007f],
  // Halves of surrogate pairs on their own (a JavaScript string can hold them): no character, and
  // two of them around a removed character must not join into one (a tag character).
  [0xd800, 0xdfff],
]

function model(text: string): string {
  let result = ''
  for (const character of text) {
    const code = character.codePointAt(0) as number
    if (code === 0x2028 || code === 0x2029) result += ' '
    else if (!removed.some(([low, high]) => code >= low && code <= high)) result += character
  }
  return result
}

const interesting = [
  ...removed.flatMap(([low, high]) => [low, high, Math.floor((low + high) / 2)]),
  0x09,
  0x0a,
  0x20,
  0x2028,
  0x2029,
  0x2065,
  0x2070,
  0x200a,
  0xe0080,
  0xdb40,
  0xdc41,
]
const codePoint = fc.oneof(
  fc.constantFrom(...interesting),
  fc.integer({ min: 0x20, max: 0x7e }),
  fc.integer({ min: 0, max: 0x10ffff }),
)
const hostileText = fc.array(codePoint, { maxLength: 40 }).map((codes) => String.fromCodePoint(...codes))

test('cleanText removes exactly the unsafe characters, turns separators into spaces, and is idempotent', () => {
  fc.assert(
    fc.property(hostileText, (text) => {
      const cleaned = cleanText(text)
      expect(cleaned).toBe(model(text))
      expect(cleanText(cleaned)).toBe(cleaned)
    }),
    { numRuns: 2000 },
  )
})

test('text without them comes back as it is; an emoji sequence loses its zero-width joiners', () => {
  for (const text of ['plain', 'café naïve', '日本語', 'flag 🇫🇷 ok', 'a\tb\nc', 'C:\\Users\\x \\d+'])
    expect(cleanText(text)).toBe(text)
  expect(cleanText('family 👨\u200d👩\u200d👧')).toBe('family 👨👩👧')
})
