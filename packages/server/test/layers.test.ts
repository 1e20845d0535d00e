// Pins the layers of src/ (docs/architecture.md "Layers", the server): which folder may import
// which, and no import cycles between folders or between files. A new dependency between folders
// is a conscious act (add it to the table, and to the drawing in docs/architecture.md, which the
// last test holds to it), as exports.test.ts does for the public API.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { cyclesOf, folderOf, importsOf, sourceFiles, unmirroredTests } from '@mcp-kit/vitest-config/layers'
import ts from 'typescript'
import { describe, expect, test } from 'vitest'

/**
 * What each folder of src/ may import besides itself and the files at the top of src/ (errors,
 * context, trace, sdk), lowest layer first.
 */
const mayImport: Record<string, string[]> = {
  protocol: [],
  registry: [],
  auth: [],
  runtime: ['protocol', 'registry', 'auth'],
  tasks: ['protocol', 'registry'],
  server: ['protocol', 'registry', 'runtime', 'tasks', 'auth'],
  store: ['protocol', 'registry', 'tasks', 'server'],
  stdio: ['protocol', 'registry', 'runtime', 'server'],
  http: ['protocol', 'registry', 'runtime', 'server', 'store', 'auth'],
}

/** What no change to the table above may allow: [importer, imported]. */
const neverImports: Array<[string, string]> = [
  ['protocol', 'http'],
  ['protocol', 'stdio'],
  ['protocol', 'server'],
  ['registry', 'runtime'],
  ['registry', 'http'],
  ['registry', 'stdio'],
  ['store', 'http'],
  ['store', 'stdio'],
  ['http', 'stdio'],
  ['stdio', 'http'],
  ['http/guard', 'http/sessions'],
  ['http/sessions', 'http/guard'],
]

const src = fileURLToPath(new URL('../src/', import.meta.url))

/** The entries, public and internal: they may import any folder, and no file imports them. */
const entryFiles = ['index.ts', 'internal.ts']

/** Every relative import of every source file (static, type-only, re-exports and import()), by src-relative path. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const [file, text] of sourceFiles(src)) {
    const targets = importsOf(ts, file, text).flatMap(({ target }) => (target === undefined ? [] : [target]))
    graph.set(file, targets)
  }
  return graph
}

const graph = importGraph()
/** Imports that cross from one folder to another: `from -> to` per file. */
const crossing = [...graph].flatMap(([from, targets]) =>
  targets.filter((to) => folderOf(to, 2) !== folderOf(from, 2)).map((to) => ({ from, to })),
)

test('the graph is read: every file of src/ is in it, and imports resolve to files', () => {
  expect(graph.size).toBeGreaterThan(50)
  const missing = [...graph.values()].flat().filter((target) => !graph.has(target))
  expect(missing).toEqual([])
})

test('every folder of src/ has its place in the table', () => {
  const folders = new Set([...graph.keys()].map((path) => folderOf(path)).filter((folder) => folder !== ''))
  expect([...folders].sort()).toEqual(Object.keys(mayImport).sort())
})

describe('each folder imports only the layers below it', () => {
  test.each(Object.entries(mayImport))('%s/ imports only from %j and the top of src/', (folder, allowed) => {
    const outside = crossing
      .filter(({ from, to }) => folderOf(from) === folder && folderOf(to) !== folder)
      .filter(({ to }) => folderOf(to) !== '' && !allowed.includes(folderOf(to)))
      .map(({ from, to }) => `${from} -> ${to}`)
    expect(outside).toEqual([])
  })
})

test.each(neverImports)('%s/ never imports %s/', (importer, imported) => {
  const depth = importer.split('/').length
  const found = crossing
    .filter(({ from, to }) => folderOf(from, depth) === importer && folderOf(to, depth) === imported)
    .map(({ from, to }) => `${from} -> ${to}`)
  expect(found).toEqual([])
})

test('the files at the top of src/ (but the entries) import no folder', () => {
  const found = crossing
    .filter(({ from, to }) => folderOf(from) === '' && !entryFiles.includes(from) && folderOf(to) !== '')
    .map(({ from, to }) => `${from} -> ${to}`)
  expect(found).toEqual([])
})

test('no file imports an entry (index.ts, internal.ts)', () => {
  const found = [...graph].flatMap(([from, targets]) =>
    targets.filter((to) => entryFiles.includes(to)).map((to) => `${from} -> ${to}`),
  )
  expect(found).toEqual([])
})

test('no import cycle between folders', () => {
  const edges = new Map<string, Set<string>>()
  for (const { from, to } of crossing) {
    if (entryFiles.includes(from)) continue
    const [a, b] = [folderOf(from) || '(top)', folderOf(to) || '(top)']
    if (a === b) continue
    if (!edges.has(a)) edges.set(a, new Set())
    edges.get(a)?.add(b)
  }
  expect(cyclesOf(edges)).toEqual([])
})

test('no import cycle between files (type-only imports included, as madge --circular counts them)', () => {
  const edges = new Map([...graph].map(([from, targets]) => [from, new Set(targets)]))
  expect(cyclesOf(edges)).toEqual([])
})

test('docs/architecture.md "Layers" (the server) draws this table: every folder with what it may import', () => {
  const architecture = readFileSync(
    fileURLToPath(new URL('../../../docs/architecture.md', import.meta.url)),
    'utf8',
  )
  const section = architecture.split('### Server (`packages/server/src`)')[1] ?? ''
  const block = section.split('```')[1] ?? ''
  const drawn: Record<string, string[]> = {}
  let open: string[] | undefined
  for (const line of block.split('\n')) {
    const folder = /^([a-z]+)\/\s/.exec(line)?.[1]
    const arrow = line.indexOf('→')
    let names: string | undefined
    if (folder !== undefined && arrow !== -1) {
      open = []
      drawn[folder] = open
      names = line.slice(arrow + 1)
    } else if (open !== undefined) {
      // A list that ended with a comma goes on at the end of the next line.
      names = line.split(/\s{2,}/).at(-1)
    }
    if (open === undefined || names === undefined) continue
    open.push(
      ...names
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== '' && name !== 'nothing'),
    )
    if (!names.trim().endsWith(',')) open = undefined
  }
  const sorted = (table: Record<string, string[]>) =>
    Object.fromEntries(Object.entries(table).map(([folder, allowed]) => [folder, [...allowed].sort()]))
  expect(sorted(drawn)).toEqual(sorted(mayImport))
})

test('test/ mirrors src/: its folders are folders of src/, what tests share is in test/helpers/', () => {
  expect(unmirroredTests(src, fileURLToPath(new URL('.', import.meta.url)))).toEqual([])
})
