// Pins the layers of src/: which folder may import which (schema at the bottom, then the document,
// the tools' shapes, HTTP, credentials, a call from end to end; registry.ts at the top composes them). A new dependency
// between folders is a conscious act (add it to the table), as exports.test.ts does for the API.

import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { expect, test } from 'vitest'

/** What each folder may import besides itself and the files at the top of src/ (errors). */
const mayImport: Record<string, string[]> = {
  schema: [],
  document: ['schema'],
  tools: ['schema', 'document'],
  http: ['schema', 'document', 'tools'],
  auth: ['document', 'tools', 'http'],
  call: ['schema', 'document', 'tools', 'http', 'auth'],
}

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

test('each folder imports only the folders below it', () => {
  const wrong: string[] = []
  for (const file of sourceFiles(src)) {
    const from = folderOf(pathOf(file))
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue
      const target = pathOf(resolve(dirname(file), fileName.replace(/\.js$/, '.ts')))
      const to = folderOf(target)
      if (from === '' || to === '' || to === from) {
        // The top of src/ composes everything; its errors module is for every folder, and imports none.
        if (to === '' && target !== 'errors.ts' && from !== '') wrong.push(`${pathOf(file)} → ${target}`)
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
