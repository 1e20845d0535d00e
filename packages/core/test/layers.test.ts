// Pins the shape of src/: one flat layer of small modules under index.ts, with no import cycle
// between them and no import of anything outside src/ (core depends on nothing).

import { fileURLToPath } from 'node:url'
import { checkLayers, unmirroredTests } from '@mcp-kit/vitest-config/layers'
import ts from 'typescript'
import { expect, test } from 'vitest'

const src = fileURLToPath(new URL('../src/', import.meta.url))

const report = checkLayers(ts, src, { layers: {} })

test('src/ is one flat layer: no folder, no file imports an entry', () => {
  expect(report.files).toBeGreaterThan(3)
  expect(report.unplaced).toEqual([])
  expect(report.violations).toEqual([])
})

test('no import cycle between files (type-only imports included)', () => {
  expect(report.fileCycles).toEqual([])
})

test('test/ is flat like src/: no folder but test/helpers/ for what tests share', () => {
  expect(unmirroredTests(src, fileURLToPath(new URL('.', import.meta.url)))).toEqual([])
})
