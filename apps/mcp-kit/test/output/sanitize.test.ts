// The sanitizer on its own: what it escapes and how, that it leaves everything else alone (the
// same string back, not a copy), that every code unit comes out safe, and that clipping never
// cuts an escape or a surrogate pair.

import { describe, expect, it } from 'vitest'
import { clip, firstLine, jsonForTerminal, sanitizeLine, sanitizeText } from '../../src/output/sanitize.js'
import { hostile } from '../fixtures/hostile-strings.js'

const unsafe =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\u{e0000}-\u{e007f}]|\p{Cs}/u

describe('sanitizeText and sanitizeLine', () => {
  it('show control characters, C1, bidi controls and lone surrogates escaped', () => {
    expect(sanitizeText('\u001b[2J\u001b]52;c;cHduZWQ=\u0007')).toBe('\\x1b[2J\\x1b]52;c;cHduZWQ=\\x07')
    expect(sanitizeText('\u009b31m \u0085 \u007f')).toBe('\\u009b31m \\u0085 \\x7f')
    expect(sanitizeText('\u202eevil\u202c \u2066x\u2069')).toBe('\\u202eevil\\u202c \\u2066x\\u2069')
    expect(sanitizeText('a\ud800b\udc00')).toBe('a\\ud800b\\udc00')
    expect(sanitizeText('over\rwrite\u0000')).toBe('over\\rwrite\\x00')
  })

  it('show bidi marks, invisible format characters, line separators and tag characters escaped', () => {
    expect(sanitizeText('a\u200fb\u061cc\u200ed')).toBe('a\\u200fb\\u061cc\\u200ed')
    expect(sanitizeText('zero\u200bwidth\u200c\u200d\u2060\u2064\u00ad\ufeff\u180e\ufff9')).toBe(
      'zero\\u200bwidth\\u200c\\u200d\\u2060\\u2064\\u00ad\\ufeff\\u180e\\ufff9',
    )
    expect(sanitizeText('a\u2028b\u2029c')).toBe('a\\u2028b\\u2029c')
    expect(sanitizeText('x\u{e0001}\u{e0068}\u{e0069}\u{e007f}y')).toBe(
      'x\\u{e0001}\\u{e0068}\\u{e0069}\\u{e007f}y',
    )
    // Past the tag block, a supplementary character is text.
    expect(sanitizeText('\u{e0080}\u{1f600}')).toBe('\u{e0080}\u{1f600}')
  })

  it('keep newlines and tabs in text, escape them on one line', () => {
    expect(sanitizeText('a\tb\nc')).toBe('a\tb\nc')
    expect(sanitizeLine('a\tb\nc')).toBe('a\\tb\\nc')
    // Line and paragraph separators break a line on some terminals: escaped on one line.
    expect(sanitizeLine('a\u2028b\u2029c')).toBe('a\\u2028b\\u2029c')
  })

  it('return safe strings as they are: prose, accents, CJK, emoji (surrogate pairs), backslashes', () => {
    for (const text of [
      'plain',
      'café naïve',
      '日本語',
      'thumbs 👍 flag 🇫🇷 ok',
      'C:\\Users\\x \\d+',
      'Hebrew שלום',
    ]) {
      expect(sanitizeText(text)).toBe(text)
      expect(sanitizeLine(text)).toBe(text)
    }
    // The zero-width joiner is shown too, also inside an emoji sequence.
    expect(sanitizeText('family 👨\u200d👩\u200d👧')).toBe('family 👨\\u200d👩\\u200d👧')
  })

  it('leave no unsafe code unit behind, for every one of the 65,536', () => {
    const wrong: string[] = []
    for (let code = 0; code <= 0xffff; code++) {
      const character = String.fromCharCode(code)
      const line = sanitizeLine(`x${character}y`)
      const escaped = unsafe.test(character) || character === '\t' || character === '\n'
      const expected = escaped
        ? /^x\\(x[0-9a-f]{2}|u[0-9a-f]{4}|[tnr])y$/.test(line)
        : line === `x${character}y`
      if (!expected || unsafe.test(line) || /[\t\n]/.test(line)) wrong.push(`U+${code.toString(16)}: ${line}`)
    }
    expect(wrong).toEqual([])
  })

  it('firstLine keeps the first line only, safe', () => {
    expect(firstLine('boom \u001b[2J\nsecond')).toBe('boom \\x1b[2J')
  })
})

describe('clip', () => {
  /** The sanitized units of `text`: one per character, an escape counting as one. */
  const units = (text: string) => [...text].map((character) => sanitizeLine(character))

  it('flattens whitespace and keeps short text whole', () => {
    expect(clip('  a\n\tb  ', 10)).toBe('a b')
    expect(clip(undefined, 10)).toBe('')
  })

  it('cuts between whole escapes and whole characters, within the limit', () => {
    const text = `ab${hostile}👍 end`
    const all = units(text.replace(/\s+/g, ' ').trim())
    for (let limit = 2; limit <= all.join('').length + 2; limit++) {
      const clipped = clip(text, limit)
      expect(clipped.length, `limit ${limit}`).toBeLessThanOrEqual(limit)
      if (!clipped.endsWith('…')) {
        expect(clipped).toBe(all.join(''))
        continue
      }
      // What is left before "…" is some number of whole units, no more than fit.
      const kept = clipped.slice(0, -1)
      let joined = ''
      let count = 0
      while (joined.length < kept.length) joined += all[count++]
      expect(joined, `limit ${limit}`).toBe(kept)
      expect(joined.length + (all[count]?.length ?? 0), `limit ${limit}`).toBeGreaterThan(limit - 1)
    }
  })
})

describe('jsonForTerminal', () => {
  it('escapes what JSON leaves raw, and JSON.parse gives back the same value', () => {
    const value = { message: hostile, list: ['\u009b', '\u202e', '\u200b', '\u{e0041}', 'fine'] }
    const json = JSON.stringify(value)
    const shown = jsonForTerminal(json)
    expect(shown).not.toMatch(unsafe)
    expect(shown).toContain('"\\udb40\\udc41"')
    expect(JSON.parse(shown)).toEqual(value)
    expect(jsonForTerminal('{"plain":"text"}')).toBe('{"plain":"text"}')
  })
})
