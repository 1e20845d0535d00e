// @module-tag integration
// `mcp-kit generate` against hostile servers: the fixture `listed.js` (a real server process)
// lists what generate-fuzz-cases.ts makes — the holes found by hand, then fast-check samples of a
// fixed seed — and the built CLI writes a module for each. Every module must be only what the
// generator writes (its syntax tree, module-shape.ts), compile under tsc --strict
// --noUncheckedIndexedAccess, and, imported by a child node process, run nothing of the server's
// (no output, no marker file, no global) while its drift record holds every tool the server
// listed (`__proto__` too). A longer run: `pnpm --filter mcp-kit fuzz:generate` (GENERATE_FUZZ_RUNS,
// GENERATE_FUZZ_SEED; GENERATE_FUZZ_KEEP=1 keeps the cases and modules).

import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { fixtureServers } from '@mcp-kit/fixtures'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hostileServer, knownCases, type ListedServer } from '../../helpers/generate-fuzz-cases.js'
import { type CliResult, runCli } from '../../helpers/helpers.js'
import { moduleProblems } from '../../helpers/module-shape.js'

const run = promisify(execFile)
const appDir = fileURLToPath(new URL('../../..', import.meta.url))
const tscPath = createRequire(import.meta.url).resolve('typescript/bin/tsc')
const runs = Number(process.env.GENERATE_FUZZ_RUNS ?? 6)
const seed = Number(process.env.GENERATE_FUZZ_SEED ?? 20261129)

let work: string
let cases: ListedServer[]
let generated: CliResult[]
let diagnostics: string[]
let imported: { code: number | null; stdout: string; stderr: string }
let names: Record<string, string[]>
let globals: string[]

const file = (index: number, extension: string) => `case-${index}.${extension}`
const byText = (left: string, right: string) => (left < right ? -1 : left > right ? 1 : 0)
/** A name as a failure message shows it: long ones cut. */
const shown = (name: string) => (name.length > 60 ? `${name.slice(0, 60)}… (${name.length})` : name)
/** How to find a case again, for a failure message. */
const replay = (index: number) =>
  `case ${index} (${index < knownCases().length ? 'known' : `seed ${seed}, sample ${index - knownCases().length} of ${runs}`}): GENERATE_FUZZ_SEED=${seed} GENERATE_FUZZ_RUNS=${runs} GENERATE_FUZZ_KEEP=1 keeps ${join(work, file(index, 'json'))}`

/** Runs `task` over `items`, `width` at a time (each starts a CLI and a server on a 2-core machine). */
async function inTurn<Item, Result>(
  items: Item[],
  width: number,
  task: (item: Item, index: number) => Promise<Result>,
) {
  const results: Result[] = []
  let next = 0
  const worker = async () => {
    for (let index = next++; index < items.length; index = next++)
      results[index] = await task(items[index] as Item, index)
  }
  await Promise.all(Array.from({ length: width }, worker))
  return results
}

const importAll = `
import { writeFileSync } from 'node:fs'
const before = new Set(Object.getOwnPropertyNames(globalThis))
const names = {}
for (const file of process.argv.slice(2)) {
  const { tools } = (await import(file)).generated
  names[file] = Array.isArray(tools) ? tools.map((tool) => tool.name) : Object.keys(tools)
}
const added = Object.getOwnPropertyNames(globalThis).filter((name) => !before.has(name))
writeFileSync(process.env.FUZZ_RESULT, JSON.stringify({ names, added }))
`

beforeAll(async () => {
  mkdirSync(join(appDir, 'test-output'), { recursive: true })
  work = mkdtempSync(join(appDir, 'test-output', 'generate-fuzz-'))
  writeFileSync(join(work, 'package.json'), '{ "type": "module" }\n')
  cases = [...knownCases(), ...fc.sample(hostileServer, { seed, numRuns: runs })]
  generated = await inTurn(cases, 2, async (listed, index) => {
    writeFileSync(join(work, file(index, 'json')), JSON.stringify(listed))
    const args = [
      'generate',
      '--out',
      file(index, 'ts'),
      '--',
      process.execPath,
      fixtureServers.listed,
      file(index, 'json'),
    ]
    return runCli(args, { cwd: work, env: { FUZZ_MARKER: join(work, 'marker') } })
  })
  const modules = cases.map((_, index) => file(index, 'ts')).filter((name) => existsSync(join(work, name)))
  const flags = ['--strict', '--noUncheckedIndexedAccess', '--verbatimModuleSyntax', '--isolatedModules']
  const options = ['--module', 'nodenext', '--target', 'es2022', '--types', 'node', '--skipLibCheck']
  const tsc = await run(
    process.execPath,
    [tscPath, ...flags, ...options, '--pretty', 'false', '--outDir', 'out', ...modules],
    {
      cwd: work,
      maxBuffer: 64 * 1024 * 1024,
    },
  ).catch((error: { stdout: string }) => ({ stdout: error.stdout }))
  diagnostics = tsc.stdout.split('\n').filter((line) => line.includes(': error TS'))
  writeFileSync(join(work, 'import-all.mjs'), importAll)
  const compiled = modules.map((name) => pathToFileURL(join(work, 'out', name.replace(/\.ts$/, '.js'))).href)
  const result = join(work, 'imported.json')
  imported = await run(process.execPath, ['import-all.mjs', ...compiled], {
    cwd: work,
    env: { ...process.env, FUZZ_MARKER: join(work, 'marker'), FUZZ_RESULT: result },
    timeout: 60_000,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code ?? -1,
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }),
  )
  const read = existsSync(result) ? JSON.parse(readFileSync(result, 'utf8')) : { names: {}, added: [] }
  names = Object.fromEntries(
    Object.entries(read.names as Record<string, string[]>).map(([url, list]) => [fileURLToPath(url), list]),
  )
  globals = read.added
}, 600_000)

afterAll(() => {
  if (work !== undefined && process.env.GENERATE_FUZZ_KEEP === undefined)
    rmSync(work, { recursive: true, force: true })
})

/** What failed, case by case: one assertion per test that names every failing case. */
function failures(check: (index: number) => unknown): Array<{ case: string; found: unknown }> {
  const found: Array<{ case: string; found: unknown }> = []
  for (const index of cases.keys()) {
    const problem = check(index)
    if (problem !== undefined) found.push({ case: replay(index), found: problem })
  }
  return found
}

describe('mcp-kit generate against hostile servers', () => {
  it('writes a module for every one', () => {
    expect(
      failures((index) => {
        const result = generated[index] as CliResult
        return result.code === 0 && /^mcp-kit: wrote case-/.test(result.stderr) ? undefined : result.stderr
      }),
    ).toEqual([])
  })

  it("each module is only the generator's code: one import, types, a JSON record and connect() from its template", () => {
    expect(
      failures((index) => {
        const path = join(work, file(index, 'ts'))
        if (!existsSync(path)) return undefined // reported above
        const problems = moduleProblems(readFileSync(path, 'utf8'))
        return problems.length === 0 ? undefined : problems.map((problem) => problem.slice(0, 160))
      }),
    ).toEqual([])
  })

  it('each module compiles under tsc --strict --noUncheckedIndexedAccess', () => {
    expect(diagnostics).toEqual([])
  })

  it("importing the compiled modules runs nothing of the server's: no output, no marker file, no global", () => {
    expect(imported).toEqual({ code: 0, stdout: '', stderr: '' })
    expect(existsSync(join(work, 'marker'))).toBe(false)
    expect(globals).toEqual([])
  })

  it('the drift record of each module, as it runs, holds every tool the server listed (__proto__ too)', () => {
    expect(
      failures((index) => {
        const held = names[join(work, 'out', file(index, 'js'))]
        if (held === undefined) return undefined // no module: reported above
        const listed = (cases[index] as ListedServer).tools.map((tool) => (tool as { name: string }).name)
        const expected = [...new Set(listed)].sort(byText).map(shown)
        const got = [...held].sort(byText).map(shown)
        return JSON.stringify(got) === JSON.stringify(expected) ? undefined : { expected, got }
      }),
    ).toEqual([])
  })
})
