// The pure parts of the UI's collections and gateway status: which file names the page may write,
// what a saved step expects, and what of an /admin/status answer the page is given.

import { describe, expect, it } from 'vitest'
import {
  type CollectionsPlace,
  collectionPath,
  expectationsOf,
} from '../../../src/commands/ui/collections.js'
import { statusView } from '../../../src/commands/ui/gateway-status.js'

const place = {
  directory: '/work/project/tests',
  io: { env: {}, cwd: '/work/project', signal: new AbortController().signal },
  args: {},
} as unknown as CollectionsPlace

describe('collection files the page names', () => {
  it('takes a relative .yaml, .yml or .json inside the directory', () => {
    expect(collectionPath(place, 'smoke/calls.yaml')).toEqual({
      file: 'smoke/calls.yaml',
      path: '/work/project/tests/smoke/calls.yaml',
    })
    expect(collectionPath(place, ' a.json ').file).toBe('a.json')
    expect(collectionPath(place, 'x/../b.yml').file).toBe('b.yml')
  })

  it('refuses a name outside it, absolute, empty or of another kind, with one line', () => {
    expect(() => collectionPath(place, '../escape.yaml')).toThrow(
      '../escape.yaml: a collection file must be inside /work/project/tests',
    )
    expect(() => collectionPath(place, 'a/../../b.yaml')).toThrow(/must be inside/)
    expect(() => collectionPath(place, '/etc/x.yaml')).toThrow(/must be inside/)
    expect(() => collectionPath(place, 'notes.txt')).toThrow(
      'notes.txt: a collection file ends in .yaml, .yml or .json',
    )
    expect(() => collectionPath(place, '')).toThrow(/must name a collection file/)
    expect(() => collectionPath(place, 3)).toThrow(/must name a collection file/)
  })
})

describe('what a saved step expects', () => {
  it('success (nothing written: a step without expectations must not fail), an error, or a text at a path', () => {
    expect(expectationsOf({})).toBeUndefined()
    expect(expectationsOf({ kind: 'success' })).toBeUndefined()
    expect(expectationsOf({ kind: 'error' })).toEqual({ error: true })
    expect(expectationsOf({ kind: 'contains', text: 'hi' })).toEqual({
      json: [{ path: '$.content[0].text', contains: 'hi' }],
    })
    expect(expectationsOf({ kind: 'contains', text: 'hi', path: '$.structuredContent.name' })).toEqual({
      json: [{ path: '$.structuredContent.name', contains: 'hi' }],
    })
    expect(() => expectationsOf({ kind: 'contains', text: '' })).toThrow(/needs the text/)
    expect(() => expectationsOf({ kind: 'snapshot' })).toThrow("unknown check 'snapshot'")
  })
})

describe("a gateway's /admin/status as the page gets it", () => {
  it('keeps the documented fields, as their types, and nothing else', () => {
    const view = statusView({
      upstreams: {
        files: { state: 'running', up: true, pid: 42, protocolVersion: '2025-11-25', restarts: 0, tools: 14 },
        web: { state: 'failed', up: false, restarts: 2, tools: 3, error: 'connection refused', extra: 'x' },
      },
      calls: [
        { upstream: 'files', method: 'tools/call', name: 'files__read', calls: 3, errors: 1, p50_ms: 1.5 },
        null,
        { upstream: 'web', method: 'tools/call', name: { toString: 1 }, calls: 'many' },
      ],
    })
    expect(view?.upstreams).toEqual([
      { name: 'files', up: true, state: 'running', restarts: 0, tools: 14, protocolVersion: '2025-11-25' },
      { name: 'web', up: false, state: 'failed', restarts: 2, tools: 3, error: 'connection refused' },
    ])
    expect(view?.calls[0]).toEqual({
      upstream: 'files',
      method: 'tools/call',
      name: 'files__read',
      calls: 3,
      errors: 1,
      p50_ms: 1.5,
      p95_ms: undefined,
      p99_ms: undefined,
    })
    expect(view?.calls).toHaveLength(2)
    expect(view?.calls[1]).toMatchObject({ name: '', calls: 0 })
  })

  it('is nothing for an answer that is not a gateway status', () => {
    expect(statusView(undefined)).toBeUndefined()
    expect(statusView({ upstreams: [], calls: [] })).toBeUndefined()
    expect(statusView({ upstreams: {} })).toBeUndefined()
    expect(statusView('<html>')).toBeUndefined()
  })
})
