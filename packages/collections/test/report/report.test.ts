// The reports CI reads: JUnit XML that a standard parser (fast-xml-parser) reads back whatever a
// server put in a message — XML's special characters, `]]>`, control characters, lone surrogates
// — and TAP whose lines stay lines; and the NDJSON records.

import fc from 'fast-check'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { describe, expect, test } from 'vitest'
import {
  type CollectionResult,
  junitReport,
  stepRecord,
  summaryRecord,
  tapHeader,
  tapPlan,
  tapStep,
} from '../../src/index.js'

function result(message: string, name = 'call echo'): CollectionResult {
  return {
    file: 'suite.yaml',
    name: 'suite <"&\'>',
    durationMs: 1234,
    unreachable: [],
    steps: [
      { index: 0, name, server: 'demo', line: 4, status: 'passed', durationMs: 10, failures: [] },
      {
        index: 1,
        name: `fails ${name}`,
        server: 'demo',
        line: 9,
        status: 'failed',
        durationMs: 20,
        failures: [{ assertion: 'result', message, path: '$.content[0].text' }],
      },
      {
        index: 2,
        name: 'later',
        server: 'demo',
        line: 12,
        status: 'skipped',
        durationMs: 0,
        failures: [],
        skipped: 'bail: an earlier step failed',
      },
      {
        index: 3,
        name: 'down',
        server: 'gone',
        line: 14,
        status: 'error',
        durationMs: 5,
        failures: [{ assertion: 'connect', message: 'refused' }],
      },
    ],
  }
}

// htmlEntities: numeric character references too (&#10; keeps a line break inside an attribute).
const parser = new XMLParser({
  ignoreAttributes: false,
  htmlEntities: true,
  isArray: (name) => name === 'testcase',
})

describe('JUnit XML', () => {
  test('counts, times, lines, failure, skipped and error elements', () => {
    const xml = junitReport([result('expected "a", got "b"')])
    expect(XMLValidator.validate(xml)).toBe(true)
    const suites = parser.parse(xml).testsuites
    expect(suites).toMatchObject({
      '@_tests': '4',
      '@_failures': '1',
      '@_errors': '1',
      '@_skipped': '1',
      '@_time': '1.234',
    })
    const suite = suites.testsuite
    expect(suite['@_name']).toBe('suite <"&\'>')
    expect(suite.testcase.map((test: Record<string, unknown>) => [test['@_name'], test['@_line']])).toEqual([
      ['call echo', '4'],
      ['fails call echo', '9'],
      ['later', '12'],
      ['down', '14'],
    ])
    expect(suite.testcase[1].failure).toEqual({
      '#text': 'result: expected "a", got "b"',
      '@_message': 'expected "a", got "b"',
      '@_type': 'result',
    })
    expect(suite.testcase[2].skipped['@_message']).toBe('bail: an earlier step failed')
    expect(suite.testcase[3].error['@_type']).toBe('connect')
  })

  test('hostile text from a server: special characters, ]]>, control characters, lone surrogates', () => {
    const hostile =
      'a ]]> <script>&amp; "quoted" \'single\' \u0000\u0007\u001b[31m \ud800 \uffff tab\there\nnext line'
    const xml = junitReport([result(hostile, hostile)])
    expect(XMLValidator.validate(xml)).toBe(true)
    const failure = parser.parse(xml).testsuites.testsuite.testcase[1].failure
    expect(failure['@_message']).toBe(
      'a ]]> <script>&amp; "quoted" \'single\' \\u0000\\u0007\\u001b[31m \\ud800 \\uffff tab\there\nnext line',
    )
    expect(failure['#text']).toContain('<script>&amp; "quoted"')
  })

  test('any string at all makes a well-formed report that reads back (property)', () => {
    // Mostly the characters that break XML, among any others.
    const hostile = fc.string({
      unit: fc.oneof(
        fc.constantFrom(
          '<',
          '>',
          '&',
          '"',
          "'",
          ']]>',
          '\u0000',
          '\u001b',
          '\ud800',
          '\udfff',
          '\ufffe',
          '\n',
          '\r',
          '\t',
          'a',
        ),
        fc.string({ unit: 'binary', maxLength: 1 }),
      ),
    })
    fc.assert(
      fc.property(hostile, hostile, (message, name) => {
        const xml = junitReport([result(message, name)])
        expect(XMLValidator.validate(xml)).toBe(true)
        // XML 1.0's Char production: fast-xml-parser lets some others through; other parsers do not.
        expect(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u.test(xml)).toBe(false)
        const cases = parser.parse(xml).testsuites.testsuite.testcase
        expect(cases).toHaveLength(4)
      }),
      { numRuns: 300 },
    )
  })
})

describe('TAP', () => {
  test('a line per step, the failures as YAML under a failed one, # escaped in names, the plan last', () => {
    const steps = result('line one\nline two # not a directive', 'name # with hash\nand a newline').steps
    const text =
      tapHeader() +
      steps.map((step, index) => tapStep(step, index + 1, { name: 'suite', file: 'suite.yaml' })).join('') +
      tapPlan(4)
    expect(text.split('\n')).toEqual([
      'TAP version 13',
      'ok 1 - suite › name \\# with hash and a newline',
      'not ok 2 - suite › fails name \\# with hash and a newline',
      '  ---',
      '  file: suite.yaml',
      '  line: 9',
      '  server: demo',
      '  severity: fail',
      '  failures:',
      '    - |-',
      '      result: line one',
      '      line two # not a directive',
      '  ...',
      'ok 3 - suite › later # SKIP bail: an earlier step failed',
      'not ok 4 - suite › down',
      '  ---',
      '  file: suite.yaml',
      '  line: 14',
      '  server: gone',
      '  severity: error',
      '  failures:',
      '    - "connect: refused"',
      '  ...',
      '1..4',
      '',
    ])
  })
})

test('NDJSON records: one per step, then a summary', () => {
  const collection = result('x')
  expect(stepRecord(collection.steps[1] as never, collection)).toEqual({
    type: 'step',
    collection: 'suite <"&\'>',
    file: 'suite.yaml',
    step: 'fails call echo',
    index: 2,
    line: 9,
    server: 'demo',
    status: 'failed',
    duration_ms: 20,
    failures: [{ assertion: 'result', message: 'x', path: '$.content[0].text' }],
  })
  expect(summaryRecord([collection], 2000)).toEqual({
    type: 'summary',
    collections: 1,
    passed: 1,
    failed: 1,
    errors: 1,
    skipped: 1,
    duration_ms: 2000,
  })
})
