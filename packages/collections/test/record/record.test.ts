// Recorded calls as steps: the observed answers become the expectations, volatile values are
// found (by rule, and by comparing two answers to one request) and listed as masks that make a
// replay pass, a drift guard covers the tools used, and --update rewrites only what was observed.

import { describe, expect, test } from 'vitest'
import { compareSnapshot } from '../../src/assert/snapshot.js'
import {
  appendCalls,
  collectionFromCalls,
  collectionText,
  observationOf,
  parseCollection,
  type RecordedCall,
  updateSnapshots,
} from '../../src/index.js'

const server = { name: 'notes', entry: { command: ['node', 'notes.js'] } }
const tools = [
  {
    name: 'add_note',
    inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
  },
  { name: 'unused', inputSchema: { type: 'object' } },
]

function call(result: unknown, extra: Partial<RecordedCall> = {}): RecordedCall {
  return {
    server,
    operation: { kind: 'call', name: 'add_note' },
    arguments: { title: 'Milk ${not a placeholder}' },
    observation: observationOf({ result }, 12),
    tools: tools as never,
    ...extra,
  }
}

const answer = (id: string, at: string, counter: number) => ({
  content: [{ type: 'text', text: `Added ${id} at ${at}` }],
  structuredContent: {
    id,
    createdAt: at,
    createdAtMs: 1767225600000 + counter,
    revision: counter,
    sessionToken: `tok${counter}abcdefghijklmnop`,
  },
})

describe('a recording', () => {
  test('expectations are the answers; masks are found and listed; a replay of other values passes', async () => {
    const first = answer('2f1c9a4e-8d3b-4c2a-9f6e-1b2c3d4e5f60', '2026-11-27T10:00:00.000Z', 1)
    const second = answer('7a6b5c4d-3e2f-4a1b-8c9d-0e1f2a3b4c5d', '2026-11-27T10:00:05.120Z', 2)
    const collection = await collectionFromCalls(
      [
        call(first),
        call(second),
        {
          server,
          operation: { kind: 'call', name: 'delete_note' },
          arguments: { id: 'x' },
          answers: 'decline',
          observation: observationOf(
            { error: Object.assign(new Error('gone'), { code: 'tool_not_found' }) },
            3,
          ),
        },
      ],
      { file: 'recorded.yaml' },
    )
    const document = collection.document
    expect(document.masks?.map((mask) => ('name' in mask ? mask.name : undefined))).toEqual([
      'timestamp',
      'uuid',
    ])
    const [guard, step, again, failed] = document.steps
    expect(guard).toMatchObject({
      list: 'tools',
      server: 'notes',
      expect: { drift: { baseline: [tools[0]] } },
    })
    expect(step?.arguments).toEqual({ title: 'Milk $${not a placeholder}' })
    expect(step?.expect?.result).toEqual(first)
    expect(step?.expect?.masks).toEqual(
      expect.arrayContaining([
        { path: '$.structuredContent.createdAtMs', note: "a time under 'createdAtMs'" },
        { path: '$.structuredContent.sessionToken', note: "an id under 'sessionToken'" },
        {
          path: '$.structuredContent.revision',
          note: 'changed between two recorded answers to the same request',
        },
      ]),
    )
    expect(again?.name).toBe('call add_note #2')
    expect(failed).toMatchObject({
      call: 'delete_note',
      answers: 'decline',
      expect: { error: 'tool_not_found' },
    })
    // A third answer, every volatile value new: equal once masked; a real change is not.
    const third = answer('0e1f2a3b-4c5d-4e6f-8a7b-9c0d1e2f3a4b', '2026-11-28T11:11:11.111Z', 7)
    const masks = [...(document.masks ?? []), ...(step?.expect?.masks ?? [])]
    expect(compareSnapshot(step?.expect?.result, third, masks)).toEqual([])
    const changed = { ...third, structuredContent: { ...third.structuredContent, title: 'new' } }
    expect(compareSnapshot(step?.expect?.result, changed, masks).map((failure) => failure.path)).toEqual([
      '$.structuredContent.title',
    ])
    // It reads back as the file it is.
    expect(parseCollection(collectionText(collection)).document).toEqual(document)
  })

  test('appending: servers of the same name and another launch get a name of their own; the guard widens', async () => {
    const base = await collectionFromCalls([call({ content: [] })], { file: 'a.yaml' })
    const other = { name: 'notes', entry: { url: 'http://127.0.0.1:1/mcp' } }
    const appended = await appendCalls(base, [
      call({ content: [] }, { server: other }),
      call({ content: [] }, { operation: { kind: 'call', name: 'unused' } }),
    ])
    expect(Object.keys(appended.document.servers)).toEqual(['notes', 'notes-2'])
    expect(appended.steps.map((step) => [step.name, step.server])).toEqual([
      ['no breaking change to the tools used (notes-2)', 'notes-2'],
      ['no breaking change to the tools used (notes)', 'notes'],
      ['call add_note', 'notes'],
      ['call add_note', 'notes-2'],
      ['call unused', 'notes'],
    ])
    const guard = appended.document.steps[1]?.expect?.drift?.baseline as Array<{ name: string }>
    expect(guard.map((tool) => tool.name)).toEqual(['add_note', 'unused'])
  })
})

test('--update rewrites observed expectations of failed steps and leaves written assertions', async () => {
  const collection = parseCollection(
    'servers:\n  s: "@s"\nsteps:\n  - call: a\n    expect:\n      result: { content: [] }\n      json: [{ path: $.content, length: 0 }]\n  - call: b\n    expect:\n      json: [{ path: $.x, exists: true }]\n',
  )
  const observation = observationOf({ result: { content: [{ type: 'text', text: 'now' }] } }, 5)
  const {
    collection: updated,
    updated: indexes,
    passing,
  } = await updateSnapshots(collection, {
    file: '',
    name: 'c',
    durationMs: 1,
    unreachable: [],
    steps: [
      {
        index: 0,
        name: 'call a',
        server: 's',
        line: 4,
        status: 'failed',
        durationMs: 1,
        observation,
        failures: [
          { assertion: 'result', message: 'differs' },
          { assertion: 'json', message: 'length' },
        ],
      },
      {
        index: 1,
        name: 'call b',
        server: 's',
        line: 8,
        status: 'failed',
        durationMs: 1,
        observation,
        failures: [{ assertion: 'json', message: 'x' }],
      },
    ],
  })
  expect(indexes).toEqual([0])
  expect(passing).toEqual([]) // its JSONPath assertion still fails
  expect(updated.document.steps[0]?.expect).toEqual({
    result: { content: [{ type: 'text', text: 'now' }] },
    json: [{ path: '$.content', length: 0 }],
  })
  expect(updated.document.steps[1]).toEqual(collection.document.steps[1])
})
