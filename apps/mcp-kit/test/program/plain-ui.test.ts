// The yargs-free path for the usual `mcp-kit ui [reference] [--no-open] [-- cmd …]`: it must hand
// runUi exactly what yargs would (every flag's default included) and take nothing less plain.
// (The tests in test/commands/ui/ run the workspace through it end to end.)

import { expect, it } from 'vitest'
import * as ui from '../../src/commands/ui/command.js'
import { plainUi } from '../../src/program/plain-ui.js'
import { splitServerCommand } from '../../src/program/run.js'
import { parsedByYargs } from '../helpers/parsed-by-yargs.js'

/** What runUi gets from yargs for `argv` (the handler adds the words after `--`). */
async function parsedByYargsUi(argv: string[]): Promise<Record<string, unknown>> {
  const { own, serverCommand } = splitServerCommand(argv)
  const parsed = await parsedByYargs(ui, own)
  return serverCommand === undefined ? parsed : { ...parsed, serverCommand }
}

it('gives runUi what yargs gives it, defaults included', async () => {
  for (const argv of [
    ['ui'],
    ['ui', '--no-open'],
    ['ui', '@demo'],
    ['ui', 'mcp+http://127.0.0.1:3000/mcp', '--no-open'],
    ['ui', '--no-open', '--', 'node', 'server.js', '--port', '007'],
    ['ui', '--', 'npx', '-y', '@modelcontextprotocol/server-everything'],
  ]) {
    const plain = plainUi(argv) as unknown as Record<string, unknown>
    expect(plain, argv.join(' ')).toBeDefined()
    const byYargs = await parsedByYargsUi(argv)
    const ownKeys = Object.keys(byYargs).filter((key) => key !== '_' && key !== '$0')
    expect(Object.keys(plain).sort(), argv.join(' ')).toEqual(ownKeys.sort())
    for (const key of ownKeys) expect(plain[key], `${argv.join(' ')}: ${key}`).toEqual(byYargs[key])
  }
})

it('leaves every other form to yargs', () => {
  for (const argv of [
    ['ui', '--help'],
    ['ui', '--port', '8080'],
    ['ui', '--open'],
    ['ui', '--no-open', '--no-open'],
    ['ui', '@demo', 'extra'],
    ['ui', '@demo', '--', 'node', 's.js'],
    ['ui', '--'],
    ['ui', '--verbose', '--', 'node', 's.js'],
    ['inspect', '@demo'],
    ['serve', '--openapi', 'a.json'],
  ]) {
    expect(plainUi(argv), argv.join(' ')).toBeUndefined()
  }
})
