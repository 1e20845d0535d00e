// The table of JSON-RPC codes in docs/architecture.md "Errors" is rendered from src/rpc-codes.ts:
// one row per code (its name, its number, what its doc comment says), in the order the source
// lists them. A code added, renamed or renumbered without the docs fails here, with the table to
// paste; MCP_KIT_WRITE_DOCS=1 writes it.

import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'
import { rpcCodes } from '../src/rpc-codes.js'

const source = readFileSync(fileURLToPath(new URL('../src/rpc-codes.ts', import.meta.url)), 'utf8')
const docsPath = fileURLToPath(new URL('../../../docs/architecture.md', import.meta.url))
const start = '<!-- rpc-codes:start -->'
const end = '<!-- rpc-codes:end -->'

/** Each code's doc comment in the source (a one-line comment just above it), or ''. */
function commentOf(name: string): string {
  const found = new RegExp(`/\\*\\*\\s*(.*?)\\s*\\*/\\s*\\n\\s*${name}:`).exec(source)
  return found?.[1] ?? ''
}

function table(): string {
  const rows = Object.entries(rpcCodes).map(
    ([name, code]) => `| \`${name}\` | ${code} | ${commentOf(name).replaceAll('|', '\\|')} |`,
  )
  return ['| name | code | meaning |', '| --- | ---: | --- |', ...rows].join('\n')
}

test('docs/architecture.md lists every JSON-RPC code as src/rpc-codes.ts names it', () => {
  const docs = readFileSync(docsPath, 'utf8')
  const from = docs.indexOf(start)
  const to = docs.indexOf(end)
  expect(from, `docs/architecture.md has the markers ${start} … ${end}`).toBeGreaterThan(-1)
  expect(to).toBeGreaterThan(from)
  const expected = `${start}\n${table()}\n${end}`
  const current = docs.slice(from, to + end.length)
  if (current !== expected && process.env.MCP_KIT_WRITE_DOCS === '1') {
    writeFileSync(docsPath, docs.slice(0, from) + expected + docs.slice(to + end.length))
    return
  }
  expect(current).toBe(expected)
})

test('every code has a name of its own, a number in the JSON-RPC range and a meaning', () => {
  const codes = Object.values(rpcCodes)
  expect(new Set(codes).size).toBe(codes.length)
  for (const code of codes) expect(code >= -32768 && code <= -32000).toBe(true)
  const unexplained = Object.keys(rpcCodes).filter((name) => commentOf(name) === '')
  expect(unexplained, 'each code says what it means in a doc comment').toEqual([])
  expect(table()).toContain('| `invalidParams` | -32602 |')
})
