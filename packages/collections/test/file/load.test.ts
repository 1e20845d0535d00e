// Reading collection files: YAML and JSON, and every kind of mistake reported as one line with
// the file, the line and column, and the step it is in.

import { describe, expect, test } from 'vitest'
import { CollectionError, formatProblem, parseCollection } from '../../src/index.js'

function problemsOf(text: string, file = 'suite.yaml'): string[] {
  try {
    parseCollection(text, { file })
  } catch (error) {
    if (!CollectionError.isInstance(error)) throw error
    expect(error.code).toBe('invalid_collection')
    return error.problems.map(formatProblem)
  }
  throw new Error('the collection was accepted')
}

const servers = 'servers:\n  demo: "@demo"\n'

describe('a valid collection', () => {
  test('YAML: steps get names, servers and operations', () => {
    const collection = parseCollection(
      `name: demo suite\n${servers}steps:\n  - call: echo\n    arguments: { message: hi }\n  - name: the readme\n    read: demo://readme\n  - list: tools\n`,
      { file: 'demo.yaml' },
    )
    expect(collection.name).toBe('demo suite')
    expect(collection.format).toBe('yaml')
    expect(collection.steps.map((step) => [step.name, step.server, step.operation.kind, step.line])).toEqual([
      ['call echo', 'demo', 'call', 5],
      ['the readme', 'demo', 'read', 7],
      ['list tools', 'demo', 'list', 9],
    ])
  })

  test('JSON: the same, named after the file, written back as JSON', () => {
    const collection = parseCollection(
      JSON.stringify(
        { servers: { demo: '@demo' }, steps: [{ prompt: 'greet', arguments: { name: 'x' } }] },
        null,
        2,
      ),
      { file: 'dir/greetings.json' },
    )
    expect(collection.name).toBe('greetings')
    expect(collection.format).toBe('json')
    expect(collection.steps[0]?.line).toBe(6)
  })
})

describe('a bad collection: one line per problem, naming the file, step and line', () => {
  test('YAML syntax', () => {
    expect(problemsOf('servers:\n  demo: "@demo\nsteps: []\n')).toEqual([
      expect.stringMatching(/^suite\.yaml:\d+:\d+: Missing closing "quote$/),
    ])
  })

  test('JSON syntax', () => {
    expect(problemsOf('{"servers": {"demo": "@demo"},\n "steps": [1,,]}', 'x.json')).toEqual([
      expect.stringMatching(/^x\.json:2:\d+: /),
    ])
  })

  test('a misspelt assertion, with a suggestion', () => {
    expect(
      problemsOf(
        `${servers}steps:\n  - call: echo\n  - name: adds\n    call: add\n    expect:\n      jsn: []\n`,
      ),
    ).toEqual(["suite.yaml:8:7: step 2 'adds': 'jsn' is not a field here; did you mean 'json'?"])
  })

  test('a step that does two things, or none', () => {
    expect(problemsOf(`${servers}steps:\n  - call: echo\n    read: demo://x\n  - name: idle\n`)).toEqual([
      "suite.yaml:4:5: step 1 'call echo': a step does one thing, this one says call and read: split it into steps",
      "suite.yaml:6:5: step 2 'idle': a step does one thing: give it one of call, read, prompt or list",
    ])
  })

  test('a server that is not there, and a step without one among several', () => {
    expect(
      problemsOf('servers:\n  a: "@a"\n  b: "@b"\nsteps:\n  - call: x\n    server: c\n  - call: y\n'),
    ).toEqual(
      [
        "suite.yaml:5:5: step 1 'call x': say which server: one of a, b ('server: NAME')",
        "suite.yaml:6:13: step 1 'call x': no server 'c' in servers (a, b)",
      ]
        .slice(1)
        .concat(["suite.yaml:7:5: step 2 'call y': say which server: one of a, b ('server: NAME')"]),
    )
  })

  test('a bad JSONPath and a bad regular expression', () => {
    expect(
      problemsOf(
        `${servers}steps:\n  - call: echo\n    capture:\n      id: $.items[\n    expect:\n      json:\n        - path: $.content[0].text\n          matches: "(unclosed"\n`,
      ),
    ).toEqual([
      expect.stringMatching(
        /^suite\.yaml:6:11: step 1 'call echo': capture 'id': "\$\.items\[" is not a JSONPath/,
      ),
      expect.stringMatching(/^suite\.yaml:10:20: step 1 'call echo': Invalid regular expression/),
    ])
  })

  test('a value used before a step captures it', () => {
    expect(
      problemsOf(
        `${servers}steps:\n  - call: get\n    arguments: { id: "\${id}" }\n  - call: create\n    capture: { id: $.structuredContent.id }\n`,
      ),
    ).toEqual(["suite.yaml:4:5: step 1 'call get': uses ${id} before step 2 captures it"])
  })

  test('a duration, a wrong type, an empty list of steps', () => {
    expect(problemsOf(`${servers}timeout: soon\nsteps:\n  - call: echo\n    task: yes please\n`)).toEqual([
      'suite.yaml:3:10: timeout: is not a duration: give seconds (5, 0.5) or a number with a unit (250ms, 5s, 2m, 1h)',
      "suite.yaml:6:11: step 1 'call echo': task: must be boolean",
    ])
    expect(problemsOf(`${servers}steps: []\n`)).toEqual(['suite.yaml:3:8: steps: must not be empty'])
  })

  test('assertions that do not fit the step', () => {
    expect(
      problemsOf(
        `${servers}steps:\n  - read: demo://x\n    arguments: { a: 1 }\n    expect:\n      schemaHash: sha256:${'0'.repeat(64)}\n`,
      ),
    ).toEqual([
      "suite.yaml:5:5: step 1 'read demo://x': 'arguments' go with call or prompt, not read",
      "suite.yaml:7:7: step 1 'read demo://x': 'schemaHash' goes with 'list: tools'",
    ])
  })

  test('a server given two ways', () => {
    expect(
      problemsOf(
        'servers:\n  x:\n    url: http://127.0.0.1/mcp\n    command: node\nsteps:\n  - list: tools\n',
      ),
    ).toEqual(["suite.yaml:3:5: server 'x' gives command and url: give one of them"])
  })

  test('the error message is the first problem, and says how many more', () => {
    try {
      parseCollection(`${servers}steps:\n  - call: echo\n    expect: { jsn: 1, reslt: 2 }\n`, {
        file: 'a.yaml',
      })
      expect.unreachable()
    } catch (error) {
      expect((error as Error).message).toBe(
        "a.yaml:5:15: step 1 'call echo': 'jsn' is not a field here; did you mean 'json'? (and 1 more)",
      )
    }
  })
})
