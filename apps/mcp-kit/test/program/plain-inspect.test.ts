// @module-tag integration
// The yargs-free path for a plain `mcp-kit inspect <reference>`: it must hand runInspect exactly
// what yargs would (every flag's default included), take nothing less plain, and leave yargs
// unloaded.

import { importedModules } from '@mcp-kit/fixtures'
import { expect, it } from 'vitest'
import * as inspect from '../../src/commands/inspect/command.js'
import { plainInspect } from '../../src/program/plain-inspect.js'
import { binPath } from '../helpers/helpers.js'
import { parsedByYargs } from '../helpers/parsed-by-yargs.js'

it('gives runInspect what yargs gives it, defaults included', async () => {
  for (const argv of [
    ['inspect', '@demo'],
    ['inspect', 'mcp+node://./server.js?arg=--x', '--format', 'json'],
    ['inspect', 'mcp+http://127.0.0.1:3000/mcp', '--format=text'],
  ]) {
    const plain = plainInspect(argv) as unknown as Record<string, unknown>
    expect(plain, argv.join(' ')).toBeDefined()
    const byYargs = await parsedByYargs(inspect, argv)
    // yargs adds camelCase copies of kebab-case flags, `_` and `$0`; the commands read neither.
    const ownKeys = Object.keys(byYargs).filter((key) => key !== '_' && key !== '$0' && !/[A-Z]/.test(key))
    expect(Object.keys(plain).sort(), argv.join(' ')).toEqual(ownKeys.sort())
    for (const key of ownKeys) expect(plain[key], `${argv.join(' ')}: ${key}`).toEqual(byYargs[key])
  }
})

it('leaves every other form to yargs', () => {
  for (const argv of [
    ['inspect'],
    ['inspect', '--help'],
    ['inspect', '@demo', '--verbose'],
    ['inspect', '@demo', '--format', 'yaml'],
    ['inspect', '@demo', '--format'],
    ['inspect', '@demo', 'extra'],
    ['inspect', '@demo', '--', '--format', 'json'],
    ['cat', '@demo?tool=echo&message=hi'],
  ]) {
    expect(plainInspect(argv), argv.join(' ')).toBeUndefined()
  }
})

it('a plain inspect loads no yargs; one more flag does', async () => {
  const plain = await importedModules([binPath, 'inspect', '@demo', '--format', 'json'])
  expect(plain.code).toBe(0)
  expect(JSON.parse(plain.stdout).server.name).toBe('mcp-kit')
  expect(plain.urls.filter((url) => url.includes('/yargs/'))).toEqual([])
  const verbose = await importedModules([binPath, 'inspect', '@demo', '--format', 'json', '--quiet'])
  expect(verbose.code).toBe(0)
  expect(verbose.urls.some((url) => url.includes('/yargs/'))).toBe(true)
})
