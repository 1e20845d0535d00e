// Pins the layers of src/ (docs/architecture.md "Layers", the CLI): base/ is the ground every
// folder stands on (io, errors, exit codes, durations, prompts, flag words); output/ how things
// are shown; record/, sampling/ and registry/ beside each other; session/ connects from flags,
// assembles a call and holds the rule for keeping a server warm; warm/ keeps sessions in a daemon
// and decides, once per command line, whether it runs there (route.ts); commands/ are the
// commands; program/ (the yargs program and its plain fast paths) runs a command line, in this
// process or in the daemon; cli/ (the process entry and completion) is the roof. bin.ts hands the
// daemon program/'s run, so neither warm/ nor program/ imports the other: warm/ runs no command of
// its own and program/ never asks for the daemon. A new dependency between folders is a conscious
// act (add it to the table).

import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { checkLayers, folderOf, importsOf, sourceFiles } from '@mcp-kit/vitest-config/layers'
import ts from 'typescript'
import { expect, test } from 'vitest'

const src = fileURLToPath(new URL('../src/', import.meta.url))
const tests = fileURLToPath(new URL('./', import.meta.url))

/** What each folder may import besides itself and the files at the top of src/, lowest first. */
const layers = {
  base: [],
  output: ['base'],
  record: ['base', 'output'],
  sampling: ['base', 'output'],
  registry: ['base', 'output'],
  apps: [],
  session: ['base', 'output', 'record', 'registry', 'sampling'],
  warm: ['base', 'output', 'session'],
  commands: ['base', 'output', 'record', 'registry', 'sampling', 'session', 'warm', 'apps'],
  program: ['base', 'output', 'session', 'commands'],
  cli: ['base', 'output', 'session', 'commands', 'program'],
}

const report = checkLayers(ts, src, { layers, entries: ['bin.ts'] })

test('every folder of src/ has its place in the table', () => {
  expect(report.files).toBeGreaterThan(150)
  expect(report.unplaced).toEqual([])
})

test('each folder imports only the layers below it: none back up (warm/ runs no command of its own, program/ never asks for the daemon)', () => {
  expect(report.violations).toEqual([])
})

test('no import cycle between folders, nor between files (type-only imports included)', () => {
  expect(report.folderCycles).toEqual([])
  expect(report.fileCycles).toEqual([])
})

test('no command imports another: what commands share is in commands/shared/, which imports none', () => {
  const found = new Set<string>()
  for (const [file, text] of sourceFiles(src)) {
    for (const { target } of importsOf(ts, file, text)) {
      if (target === undefined) continue
      const [from, to] = [folderOf(file, 2), folderOf(target, 2)]
      if (
        from !== to &&
        from.startsWith('commands/') &&
        to.startsWith('commands/') &&
        to !== 'commands/shared'
      )
        found.add(`${from} -> ${to}`)
    }
  }
  expect([...found].sort()).toEqual([])
})

/** The folders under `root`, as paths relative to it ('commands/ui'), node_modules aside. */
function foldersUnder(root: string, at = ''): string[] {
  return readdirSync(join(root, at), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules')
    .flatMap((entry) => {
      const folder = at === '' ? entry.name : `${at}/${entry.name}`
      return [folder, ...foldersUnder(root, folder)]
    })
}

test('test/ mirrors src/: each folder of tests is a folder of src/, or helpers/ or fixtures/', () => {
  const sources = new Set(foldersUnder(src))
  const others = foldersUnder(tests).filter(
    (folder) => !sources.has(folder) && !/^(helpers|fixtures)(\/|$)/.test(folder),
  )
  expect(others).toEqual([])
})

test('only tests are beside tests: what is not a *.test.ts is in test/helpers/ or test/fixtures/', () => {
  const strays = ['', ...foldersUnder(tests)]
    .filter((folder) => !/^(helpers|fixtures)(\/|$)/.test(folder))
    .flatMap((folder) =>
      readdirSync(join(tests, folder), { withFileTypes: true })
        .filter((entry) => entry.isFile() && !entry.name.endsWith('.test.ts'))
        .map((entry) => (folder === '' ? entry.name : `${folder}/${entry.name}`)),
    )
  expect(strays).toEqual([])
})
