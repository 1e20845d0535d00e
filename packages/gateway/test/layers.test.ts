// Pins the layers of src/ (docs/architecture.md "Layers", the gateway): which folder may import
// which, and no import cycles. gateway.ts and index.ts at the top compose the folders; the other
// files at the top (types, naming, the config error) are for every folder and import none, but
// types.ts names the options the folders define. A new dependency between folders is a conscious
// act (add it to the table), as exports.test.ts does for the public API.

import { fileURLToPath } from 'node:url'
import { checkLayers, type LayerRules, unmirroredTests } from '@mcp-kit/vitest-config/layers'
import ts from 'typescript'
import { expect, test } from 'vitest'

const src = fileURLToPath(new URL('../src/', import.meta.url))

/** What each folder of src/ may import besides itself and the shared files at the top, lowest first. */
const rules: LayerRules = {
  layers: {
    policy: [],
    limits: ['policy'],
    audit: [],
    telemetry: [],
    controls: ['policy', 'limits', 'audit', 'telemetry'],
    config: ['controls', 'policy'],
    upstream: [],
    catalog: ['upstream', 'controls', 'policy'],
  },
  entries: ['index.ts', 'gateway.ts'],
  topImportsTypes: true,
}

const report = checkLayers(ts, src, rules)

test('every folder of src/ has its place in the table', () => {
  expect(report.files).toBeGreaterThan(30)
  expect(report.unplaced).toEqual([])
})

test('each folder imports only the layers below it; the shared files at the top import none', () => {
  expect(report.violations).toEqual([])
})

test('no import cycle between folders, nor between files (type-only imports included)', () => {
  expect(report.folderCycles).toEqual([])
  expect(report.fileCycles).toEqual([])
})

test('the reading catches an upward import, an entry imported and a cycle', () => {
  const files = new Map([
    ['index.ts', "export * from './gateway.js'"],
    ['gateway.ts', "import { a } from './policy/a.js'"],
    ['types.ts', "import type { A } from './policy/a.js'"],
    ['policy/a.ts', "import { c } from '../catalog/c.js'\nexport const a = 1"],
    ['catalog/c.ts', "import { a } from '../policy/a.js'\nimport { g } from '../gateway.js'"],
  ])
  const found = checkLayers(ts, src, { ...rules, layers: { policy: [], catalog: ['policy'] } }, files)
  expect(found.violations).toEqual([
    'policy/a.ts imports ../catalog/c.js: policy/ may not import catalog/',
    'catalog/c.ts imports ../gateway.js: no file imports an entry (index.ts, gateway.ts)',
  ])
  expect(found.folderCycles).toEqual(['policy → catalog → policy'])
  expect(found.fileCycles).toEqual([
    'policy/a.ts → catalog/c.ts → policy/a.ts',
    'gateway.ts → policy/a.ts → catalog/c.ts → gateway.ts',
  ])
})

test('test/ mirrors src/: its folders are folders of src/, what tests share is in test/helpers/', () => {
  expect(unmirroredTests(src, fileURLToPath(new URL('.', import.meta.url)))).toEqual([])
})
