// Pins the layers of src/ (docs/architecture.md "Layers", the CLI): base/ is the ground every
// folder stands on (io, errors, exit codes, durations, prompts, flag words); output/ how things
// are shown; record/, sampling/ and registry/ beside each other; session/ connects from flags and
// assembles a call; warm/ keeps sessions in a daemon; commands/ are the commands; cli/ (the yargs
// program, completion, plain inspect) is the roof, and bin.ts hands the daemon the commands. A new
// dependency between folders is a conscious act (add it to the table).

import { fileURLToPath } from 'node:url'
import { checkLayers, folderOf, importsOf, sourceFiles } from '@mcp-kit/vitest-config/layers'
import ts from 'typescript'
import { expect, test } from 'vitest'

const src = fileURLToPath(new URL('../src/', import.meta.url))

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
  cli: ['base', 'output', 'session', 'warm', 'commands'],
}

const report = checkLayers(ts, src, { layers, entries: ['bin.ts'] })

test('every folder of src/ has its place in the table', () => {
  expect(report.files).toBeGreaterThan(150)
  expect(report.unplaced).toEqual([])
})

test('each folder imports only the layers below it: none back up (warm/ runs no command of its own)', () => {
  expect(report.violations).toEqual([])
})

test('no import cycle between folders, nor between files (type-only imports included)', () => {
  expect(report.folderCycles).toEqual([])
  expect(report.fileCycles).toEqual([])
})

/**
 * The commands that still use another command's modules. This list only shrinks: what two
 * commands share moves down to session/ or base/, and a new line here fails the test.
 */
const sharedBetweenCommands = [
  'commands/call -> commands/profile',
  'commands/inspect -> commands/profile',
  'commands/profile -> commands/generate',
  'commands/put -> commands/call',
  'commands/registry -> commands/inspect',
  'commands/shell -> commands/call',
  'commands/shell -> commands/inspect',
  'commands/ui -> commands/auth',
  'commands/ui -> commands/call',
  'commands/ui -> commands/profile',
  'commands/ui -> commands/test',
]

test('a command imports another only where the list says (the list only shrinks)', () => {
  const found = new Set<string>()
  for (const [file, text] of sourceFiles(src)) {
    for (const { target } of importsOf(ts, file, text)) {
      if (target === undefined) continue
      const [from, to] = [folderOf(file, 2), folderOf(target, 2)]
      if (from !== to && from.startsWith('commands/') && to.startsWith('commands/'))
        found.add(`${from} -> ${to}`)
    }
  }
  expect([...found].sort()).toEqual(sharedBetweenCommands)
})
