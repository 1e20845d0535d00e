// Parameter serialization against the style examples of the OpenAPI specification (3.0.4, which
// follows RFC 6570 for `label`), and properties any value keeps: a path value never adds a segment
// or leaves the path (dot segments are path.ts's to refuse: paths.test.ts), a query value
// reads back as it was.

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { cookiePairs, headerValue, pathValue, queryPairs } from '../../src/http/serialize.js'

const string = 'blue'
const array = ['blue', 'black', 'brown']
const object = { R: 100, G: 200, B: 150 }

describe("the specification's style examples", () => {
  it.each([
    ['simple', false, 'blue', 'blue,black,brown', 'R,100,G,200,B,150'],
    ['simple', true, 'blue', 'blue,black,brown', 'R=100,G=200,B=150'],
    ['label', false, '.blue', '.blue,black,brown', '.R,100,G,200,B,150'],
    ['label', true, '.blue', '.blue.black.brown', '.R=100.G=200.B=150'],
    ['matrix', false, ';color=blue', ';color=blue,black,brown', ';color=R,100,G,200,B,150'],
    ['matrix', true, ';color=blue', ';color=blue;color=black;color=brown', ';R=100;G=200;B=150'],
  ] as const)('path %s, explode %s', (style, explode, one, many, fields) => {
    expect(pathValue('color', string, style, explode)).toBe(one)
    expect(pathValue('color', array, style, explode)).toBe(many)
    expect(pathValue('color', object, style, explode)).toBe(fields)
  })

  it.each([
    ['form', false, 'color=blue', 'color=blue,black,brown', 'color=R,100,G,200,B,150'],
    ['form', true, 'color=blue', 'color=blue&color=black&color=brown', 'R=100&G=200&B=150'],
    [
      'spaceDelimited',
      false,
      'color=blue',
      'color=blue%20black%20brown',
      'color=R%20100%20G%20200%20B%20150',
    ],
    ['pipeDelimited', false, 'color=blue', 'color=blue|black|brown', 'color=R|100|G|200|B|150'],
  ] as const)('query %s, explode %s', (style, explode, one, many, fields) => {
    expect(queryPairs('color', string, style, explode, false)).toBe(one)
    expect(queryPairs('color', array, style, explode, false)).toBe(many)
    expect(queryPairs('color', object, style, explode, false)).toBe(fields)
  })

  it('query deepObject, and reserved characters only where allowReserved says', () => {
    expect(queryPairs('color', object, 'deepObject', true, false)).toBe(
      'color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150',
    )
    // Nested as Stripe and qs read them: objects by key, arrays by index.
    expect(
      decodeURIComponent(queryPairs('a', { b: { c: 1 }, d: ['x', { e: null }] }, 'deepObject', true, false)),
    ).toBe('a[b][c]=1&a[d][0]=x&a[d][1][e]=')
    // `#` would end the query: encoded even where reserved characters are allowed.
    expect(queryPairs('q', 'a#b&c', 'form', true, true)).toBe('q=a%23b&c')
    expect(queryPairs('q', 'a/b?c&d=e', 'form', true, false)).toBe('q=a%2Fb%3Fc%26d%3De')
    expect(queryPairs('q', 'a/b?c', 'form', true, true)).toBe('q=a/b?c')
    expect(queryPairs('q', [], 'form', true, false)).toBe('')
  })

  it('headers simple, cookies form', () => {
    expect(headerValue(array, false)).toBe('blue,black,brown')
    expect(headerValue(object, true)).toBe('R=100,G=200,B=150')
    expect(headerValue('line\r\nbreak', false)).toBe('line%0D%0Abreak')
    expect(cookiePairs('color', array, false)).toBe('color=blue,black,brown')
    expect(cookiePairs('color', object, true)).toBe('R=100; G=200; B=150')
    expect(cookiePairs('id', 'a;b c', false)).toBe('id=a%3Bb%20c')
  })
})

describe('any value', () => {
  it('stays one path segment and reads back as it was (simple style)', () => {
    fc.assert(
      // `.` and `..` are dot segments a URL collapses: the request refuses them (path.ts and its
      // test), so they are no value this encoding has to carry.
      fc.property(
        fc.string({ unit: 'grapheme' }).filter((value) => value !== '.' && value !== '..'),
        (value) => {
          const encoded = pathValue('id', value, 'simple', false)
          expect(encoded).not.toMatch(/[/?#]/)
          expect(decodeURIComponent(encoded)).toBe(value)
          const url = new URL(`https://api.example.com/v1/items/${encoded}/parts`)
          expect(url.origin).toBe('https://api.example.com')
          expect(url.pathname.split('/')).toHaveLength(5)
        },
      ),
    )
  })

  it('reads back from the query string as it was (form style)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme' }),
        fc.array(fc.string({ unit: 'grapheme' }), { maxLength: 5 }),
        (one, many) => {
          const query = [
            queryPairs('one', one, 'form', true, false),
            queryPairs('many', many, 'form', true, false),
          ]
            .filter((part) => part !== '')
            .join('&')
          const parsed = new URLSearchParams(query.replace(/\+/g, '%2B'))
          expect(parsed.get('one')).toBe(one)
          expect(parsed.getAll('many')).toEqual(many)
        },
      ),
    )
  })
})
