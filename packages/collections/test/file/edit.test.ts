// Changing collections as the UI and the recorder do: each edit keeps the file's comments and
// layout elsewhere, gives a collection checked as a file read from disk is, and writes YAML or
// JSON as the file was.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import {
  addStep,
  CollectionError,
  collectionText,
  createCollection,
  loadCollection,
  parseCollection,
  removeStep,
  replaceStep,
  saveCollection,
  setExpectations,
  setField,
  setServer,
} from '../../src/index.js'

const directory = mkdtempSync(join(tmpdir(), 'collections-edit-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

const written = `# Saved calls for the demo server.
name: demo
servers:
  demo: "@demo" # bundled
steps:
  # The first step says hello.
  - call: echo
    arguments: { message: hi }
  - list: tools
`

describe('edits keep what they do not touch', () => {
  test('a step added, replaced and removed; an expectation set; comments stay', () => {
    const collection = parseCollection(written, { file: 'demo.yaml' })
    const added = addStep(collection, { read: 'demo://readme' })
    expect(added.steps.map((step) => step.name)).toEqual(['call echo', 'list tools', 'read demo://readme'])
    expect(added.steps[2]?.line).toBe(10)
    const text = collectionText(added)
    expect(text).toContain('# Saved calls for the demo server.')
    expect(text).toContain('# The first step says hello.')
    expect(text).toContain('demo: "@demo" # bundled')
    const replaced = replaceStep(added, 1, {
      name: 'the tools',
      list: 'tools',
      expect: { json: [{ path: '$.tools', length: 2 }] },
    })
    expect(replaced.steps[1]?.name).toBe('the tools')
    const expecting = setExpectations(replaced, 0, { result: { content: [{ type: 'text', text: 'hi' }] } })
    expect(expecting.document.steps[0]?.expect).toEqual({
      result: { content: [{ type: 'text', text: 'hi' }] },
    })
    const cleared = setExpectations(expecting, 0, { result: undefined })
    expect(cleared.document.steps[0]?.expect).toBeUndefined()
    const removed = removeStep(cleared, 2)
    expect(removed.steps).toHaveLength(2)
    expect(collectionText(removed)).toContain('# The first step says hello.')
    // The collection edited is never changed itself.
    expect(collectionText(collection)).toBe(written)
  })

  test('a field added goes before the servers; a server added', () => {
    const collection = setServer(
      setField(parseCollection(written, { file: 'demo.yaml' }), 'masks', [
        { name: 'uuid', pattern: '[0-9a-f-]{36}' },
      ]),
      'other',
      { command: ['node', 'server.js'] },
    )
    const text = collectionText(collection)
    expect(text.indexOf('masks:')).toBeLessThan(text.indexOf('servers:'))
    expect(Object.keys(collection.document.servers)).toEqual(['demo', 'other'])
    // The steps that named no server now name the one they ran on.
    expect(collection.steps.map((step) => step.server)).toEqual(['demo', 'demo'])
    expect(text).toContain('  # The first step says hello.\n  - server: demo\n    call: echo\n')
  })

  test('an edit that breaks the collection is refused with the problem', () => {
    const collection = parseCollection(written, { file: 'demo.yaml' })
    expect(() => addStep(collection, { call: 'echo', server: 'nowhere' })).toThrowError(
      /demo\.yaml:11:13: step 3 'call echo': no server 'nowhere'/,
    )
    expect(() => removeStep(collection, 5)).toThrow(CollectionError)
  })
})

describe('writing', () => {
  test('a new collection as YAML with its $schema, saved and read back', async () => {
    const file = join(directory, 'new.yaml')
    const collection = createCollection(
      {
        name: 'fresh',
        servers: { demo: '@demo' },
        steps: [{ call: 'echo', arguments: { message: 'a ${literal}' } }],
      },
      { file },
    )
    await saveCollection(collection)
    const text = readFileSync(file, 'utf8')
    expect(
      text.startsWith(
        '$schema: https://unpkg.com/@mcp-kit/collections/collection.schema.json\nname: fresh\n',
      ),
    ).toBe(true)
    expect((await loadCollection(file)).document).toEqual(collection.document)
  })

  test('a JSON collection stays JSON', async () => {
    const file = join(directory, 'calls.json')
    writeFileSync(file, JSON.stringify({ servers: { demo: '@demo' }, steps: [{ list: 'tools' }] }))
    const collection = addStep(await loadCollection(file), { call: 'echo', arguments: { message: 'x' } })
    await saveCollection(collection)
    expect(JSON.parse(readFileSync(file, 'utf8')).steps).toEqual([
      { list: 'tools' },
      { call: 'echo', arguments: { message: 'x' } },
    ])
  })
})
