// Pins the layers of the page's source (web/src): the form generator (form/) stands alone, the
// panels (components/) use it, and app.tsx with main.tsx compose them; the files at the top (the
// API client, the store, the types) are for every folder and import none. A new dependency
// between folders is a conscious act (add it to the table).

import { fileURLToPath } from 'node:url'
import { checkLayers, unmirroredTests } from '@mcp-kit/vitest-config/layers'
import ts from 'typescript'
import { expect, test } from 'vitest'

const web = fileURLToPath(new URL('../web/src/', import.meta.url))

const report = checkLayers(ts, web, {
  layers: {
    form: [],
    components: ['form'],
  },
  entries: ['main.tsx', 'app.tsx'],
})

test('every folder of web/src/ has its place in the table', () => {
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

test('test/ mirrors the page source: its folders are folders of web/src/, what tests share is in test/helpers/', () => {
  expect(unmirroredTests(web, fileURLToPath(new URL('.', import.meta.url)))).toEqual([])
})
