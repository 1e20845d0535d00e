// Pins the layers of src/: which folder may import which. assert/ (JSONPaths, masks, snapshots,
// the checks) and report/ stand alone; file/ reads and edits collections with the assertions'
// JSONPath checks; run/ and record/ sit on both. A new dependency between folders is a
// conscious act (add it to the table), as exports.test.ts does for the API.

import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { expect, test } from 'vitest'

/** What each folder may import besides itself and the shared files at the top of src/. */
const mayImport: Record<string, string[]> = {
  assert: [],
  report: [],
  file: ['assert'],
  run: ['assert', 'file'],
  record: ['assert', 'file'],
}

/** The files at the top that every folder may use; they import no folder. */
const shared = ['collection-types.ts', 'durations.ts', 'errors.ts', 'placeholders.ts']

const src = fileURLToPath(new URL('../src/', import.meta.url))

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return name.endsWith('.ts') ? [path] : []
  })
}

const pathOf = (file: string) => relative(src, file).split(sep).join('/')
const folderOf = (path: string) => path.split('/').slice(0, -1).join('/')

test('each folder imports only the folders below it; the shared files import none', () => {
  const wrong: string[] = []
  for (const file of sourceFiles(src)) {
    const from = folderOf(pathOf(file))
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
    for (const { fileName } of importedFiles) {
      // The package's JSON Schema, beside src/: data, not a layer.
      if (!fileName.startsWith('.') || fileName.endsWith('collection.schema.json')) continue
      const target = pathOf(resolve(dirname(file), fileName.replace(/\.js$/, '.ts')))
      const to = folderOf(target)
      if (to === from) continue
      if (from === '') {
        // index.ts composes everything; the shared files import no folder.
        if (shared.includes(pathOf(file)) && to !== '') wrong.push(`${pathOf(file)} → ${target}`)
        continue
      }
      if (to === '') {
        if (!shared.includes(target)) wrong.push(`${pathOf(file)} → ${target}`)
        continue
      }
      if (!mayImport[from]?.includes(to)) wrong.push(`${pathOf(file)} → ${target}`)
    }
  }
  expect(wrong).toEqual([])
  expect(Object.keys(mayImport).sort()).toEqual(
    readdirSync(src)
      .filter((name) => statSync(join(src, name)).isDirectory())
      .sort(),
  )
})
