import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ProfileError } from '../../src/index.js'
import { parseJsonFile } from '../../src/internal.js'
import { findJsonErrorPosition } from '../../src/store/json-file.js'

function message(text: string): string {
  try {
    parseJsonFile(text, 'p.json')
  } catch (error) {
    if (ProfileError.isInstance(error)) return error.message
    throw error
  }
  return 'parsed'
}

describe('parseJsonFile', () => {
  it.each([
    ['{"a": 1,}', 'invalid JSON in p.json:1:9: unexpected "}"'],
    ['{\n  "a": tru\n}', 'invalid JSON in p.json:2:11: unexpected "\\n"'],
    ['{"a": ', 'invalid JSON in p.json:1:7: unexpected end of input'],
    ['', 'invalid JSON in p.json:1:1: unexpected end of input'],
    ['{"a": "x\ny"}', 'invalid JSON in p.json:1:9: unexpected "\\n"'],
    ['[1] [2]', 'invalid JSON in p.json:1:5: unexpected "["'],
    ['{"a": 01}', 'invalid JSON in p.json:1:8: unexpected "1"'],
  ])('%j', (text, expected) => {
    expect(message(text)).toBe(expected)
  })

  it('valid JSON parses', () => {
    expect(parseJsonFile('{"a": [1, "b", null, true]}', 'p.json')).toEqual({ a: [1, 'b', null, true] })
  })

  it('the scanner agrees with JSON.parse on what is valid', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(findJsonErrorPosition(text)).toBe(text.length)
      }),
    )
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (text) => {
        let valid = true
        try {
          JSON.parse(text)
        } catch {
          valid = false
        }
        const position = findJsonErrorPosition(text)
        if (valid) expect(position).toBe(text.length)
        expect(position).toBeLessThanOrEqual(text.length)
      }),
      { numRuns: 2000 },
    )
  })
})
