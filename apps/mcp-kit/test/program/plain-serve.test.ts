// @module-tag integration
// The yargs-free path for the way hosts launch a REST API, `mcp-kit serve --openapi SPEC`: it must
// hand runServe exactly what yargs would, take nothing less plain, leave yargs unloaded, and serve.

import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { importedModules } from '@mcp-kit/fixtures'
import { expect, it } from 'vitest'
import * as serve from '../../src/commands/serve/command.js'
import { plainServe } from '../../src/program/plain-serve.js'
import { binPath } from '../helpers/helpers.js'
import { parsedByYargs } from '../helpers/parsed-by-yargs.js'

it('gives runServe what yargs gives it', async () => {
  for (const argv of [
    ['serve', '--openapi', './api.json'],
    ['serve', '--stdio', '--openapi', 'https://api.example.com/openapi.yaml'],
    ['serve', '--openapi=a.json', '--openapi-base', 'http://127.0.0.1:8080', '--stdio'],
    ['serve', '--openapi', 'a.json', '--openapi', 'pets=b.yaml', '--openapi-output-schemas=compact'],
    ['serve', '--openapi-output-schemas', 'full', '--openapi', 'a.json', '--openapi-base=http://x'],
  ]) {
    const plain = plainServe(argv) as unknown as Record<string, unknown>
    expect(plain, argv.join(' ')).toBeDefined()
    const byYargs = await parsedByYargs(serve, argv)
    // `_` and `$0` are yargs' own; serve reads neither.
    const ownKeys = Object.keys(byYargs).filter((key) => key !== '_' && key !== '$0')
    expect(Object.keys(plain).sort(), argv.join(' ')).toEqual(ownKeys.sort())
    for (const key of ownKeys) expect(plain[key], `${argv.join(' ')}: ${key}`).toEqual(byYargs[key])
  }
})

it('leaves every other form to yargs', () => {
  for (const argv of [
    ['serve'],
    ['serve', '--stdio'],
    ['serve', '--help'],
    ['serve', '--openapi'],
    ['serve', '--openapi', '--stdio'],
    ['serve', '--openapi', ''],
    ['serve', '--openapi', 'a.json', '--port', '3000'],
    ['serve', '--openapi', 'a.json', '--openapi-output-schemas', 'all'],
    ['serve', '--openapi', 'a.json', '--openapi-base', 'http://x', '--openapi-base', 'http://y'],
    ['serve', '--openapi', 'a.json', '--stdio', '--stdio'],
    ['serve', '--openapi', 'a.json', '--stdio=false'],
    ['serve', '--openapi', 'a.json', '--no-stdio'],
    ['serve', './tools.js', '--openapi', 'a.json'],
    ['serve', '--openapi', 'a.json', '--', 'node', 'x.js'],
    ['serve', '--openapi', 'a.json', '-h'],
    ['inspect', '--openapi', 'a.json'],
  ]) {
    expect(plainServe(argv), argv.join(' ')).toBeUndefined()
  }
})

it('a plain serve --openapi loads no yargs and lists the API as tools; one more flag loads yargs', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-kit-plain-serve-'))
  const spec = join(dir, 'api.json')
  writeFileSync(
    spec,
    JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'Things', version: '1' },
      servers: [{ url: 'http://127.0.0.1:9' }],
      paths: {
        '/things/{id}': {
          get: {
            operationId: 'getThing',
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
            responses: { '200': { description: 'a thing' } },
          },
        },
      },
    }),
  )
  const input = [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
  ]
    .map((message) => `${JSON.stringify(message)}\n`)
    .join('')
  const listed = (stdout: string) =>
    stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .find((message) => message.id === 2)
      ?.result?.tools?.map((tool: { name: string }) => tool.name)
  const plain = await importedModules([binPath, 'serve', '--stdio', '--openapi', spec], { input })
  expect(plain.code).toBe(0)
  expect(listed(plain.stdout)).toEqual(['getThing'])
  expect(plain.urls.filter((url) => url.includes('/yargs/'))).toEqual([])
  const other = await importedModules(
    [binPath, 'serve', '--stdio', '--openapi', spec, '--openapi-timeout', '5'],
    {
      input,
    },
  )
  expect(other.code).toBe(0)
  expect(listed(other.stdout)).toEqual(['getThing'])
  expect(other.urls.some((url) => url.includes('/yargs/'))).toBe(true)
})
