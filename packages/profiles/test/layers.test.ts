// Pins the layers of src/ (docs/architecture.md "Layers", profiles): reading references
// (reference/), the MCP Registry's entries as launch specs (registry/) and what is on disk
// (store/) stand apart; resolve/ turns a reference into a launch spec with all three. The files at
// the top (errors, types, names, substitution) are for every folder and import none. A new
// dependency between folders is a conscious act (add it to the table).

import { fileURLToPath } from 'node:url'
import { checkLayers, unmirroredTests } from '@mcp-kit/vitest-config/layers'
import ts from 'typescript'
import { expect, test } from 'vitest'

const src = fileURLToPath(new URL('../src/', import.meta.url))

/** What each folder may import besides itself and the shared files at the top of src/. */
const report = checkLayers(ts, src, {
  layers: {
    reference: [],
    registry: [],
    store: [],
    resolve: ['reference', 'registry', 'store'],
  },
})

test('every folder of src/ has its place in the table', () => {
  expect(report.files).toBeGreaterThan(20)
  expect(report.unplaced).toEqual([])
})

test('each folder imports only the folders below it; the shared files at the top import none', () => {
  expect(report.violations).toEqual([])
})

test('no import cycle between folders, nor between files (type-only imports included)', () => {
  expect(report.folderCycles).toEqual([])
  expect(report.fileCycles).toEqual([])
})

test('test/ mirrors src/: its folders are folders of src/, what tests share is in test/helpers/', () => {
  expect(unmirroredTests(src, fileURLToPath(new URL('.', import.meta.url)))).toEqual([])
})
