// @module-tag integration
// `mcp-kit generate` end to end: modules for real servers (server-everything, -filesystem,
// -memory, the conformance fixture, the drift fixture), compiled with callers by the workspace's
// tsc under --strict --noUncheckedIndexedAccess in one run, the callers run with node against the
// live servers; a server whose schema changed under a compiled caller (parameters, result fields,
// by policy); a secret of the reference kept as ${NAME}; regeneration byte for byte.
// The modules live under apps/mcp-kit/test-output so that they resolve @mcp-kit/client as users'
// code does (this package's node_modules, the built dist).

import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { fixtureServers, npmServers } from '@mcp-kit/fixtures'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { memberNames } from '../../../src/commands/generate/member-names.js'
import { renderModule } from '../../../src/commands/generate/render-module.js'
import { callers, hostileModel } from '../../helpers/generate-callers.js'
import { binPath, runCli, runCliAtHome } from '../../helpers/helpers.js'

const run = promisify(execFile)
const appDir = fileURLToPath(new URL('../../..', import.meta.url))
const tscPath = createRequire(import.meta.url).resolve('typescript/bin/tsc')
const conformance = fileURLToPath(
  new URL('../../../../../tooling/conformance/everything.js', import.meta.url),
)

let work: string
let variantFile: string
let diagnostics: string[]

function generate(out: string, args: string[], env: Record<string, string> = {}) {
  return runCliAtHome(join(work, 'home'), work, ['generate', '--out', out, ...args], { env })
}

function serverArgs(name: string): string[] {
  if (name === 'everything') return ['--', process.execPath, npmServers.everything]
  if (name === 'filesystem') return ['--', process.execPath, npmServers.filesystem, work]
  if (name === 'memory')
    return [
      '--env',
      `MEMORY_FILE_PATH=${join(work, 'memory.jsonl')}`,
      '--',
      process.execPath,
      npmServers.memory,
    ]
  if (name === 'conformance') return ['--', process.execPath, binPath, 'serve', conformance]
  if (name === 'bio') return ['@bio']
  if (name === 'secret') return [`mcp+node://${npmServers.everything}?env.API_KEY=${apiKey}&env.MODE=plain`]
  if (name === 'drift-breaking')
    return ['--policy', 'breaking', '--', process.execPath, fixtureServers.drift, variantFile]
  return ['--', process.execPath, fixtureServers.drift, variantFile]
}

/** A value shaped like a real key: written into the reference, never into the module. */
const apiKey = 'sk-live-0123456789abcdefXYZ'

/** Runs a compiled caller; a non-zero exit is a result, not a failure. */
async function runCaller(
  file: string,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(work, 'out', file)], {
      cwd: work,
      timeout: 30_000,
      env: { ...process.env, ...env },
    })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string }
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' }
  }
}

beforeAll(async () => {
  mkdirSync(join(appDir, 'test-output'), { recursive: true })
  work = mkdtempSync(join(appDir, 'test-output', 'generate-'))
  writeFileSync(join(work, 'package.json'), '{ "type": "module" }\n')
  variantFile = join(work, 'variant')
  writeFileSync(variantFile, 'base')
  // A profile whose launch settings use a variable: the module keeps it, unexpanded.
  const profile = join(work, 'home', '.config', 'mcp-kit', 'profiles', 'bio')
  mkdirSync(profile, { recursive: true })
  writeFileSync(join(work, 'bio-variant'), 'base')
  writeFileSync(
    join(profile, '_meta.json'),
    JSON.stringify({
      command: process.execPath,
      args: [fixtureServers.drift, '${BIO_VARIANT_FILE}'],
      env: { BIO_TOKEN: '${secret:bio/token}' },
    }),
  )
  writeFileSync(
    join(work, 'home', '.config', 'mcp-kit', 'secrets.json'),
    '{"secrets":{"bio/token":"s3cret"}}',
    {
      mode: 0o600,
    },
  )
  const names = [
    'everything',
    'filesystem',
    'memory',
    'conformance',
    'drift',
    'bio',
    'drift-breaking',
    'secret',
  ]
  const results = await Promise.all(
    names.map((name) =>
      generate(`${name}.ts`, serverArgs(name), { BIO_VARIANT_FILE: join(work, 'bio-variant') }),
    ),
  )
  for (const result of results) expect(result.stderr).toMatch(/^mcp-kit: wrote [\w-]+\.ts \(\d+ tools/)
  writeFileSync(
    join(work, 'hostile.ts'),
    await renderModule(hostileModel as unknown as Parameters<typeof renderModule>[0]),
  )
  for (const [file, text] of Object.entries(callers)) writeFileSync(join(work, file), text)
  const files = [...names.map((name) => `${name}.ts`), 'hostile.ts', ...Object.keys(callers)]
  const flags = ['--strict', '--noUncheckedIndexedAccess', '--verbatimModuleSyntax', '--isolatedModules']
  const options = ['--module', 'nodenext', '--target', 'es2022', '--types', 'node', '--skipLibCheck']
  const tsc = await run(
    process.execPath,
    [tscPath, ...flags, ...options, '--pretty', 'false', '--outDir', 'out', ...files],
    {
      cwd: work,
    },
  ).catch((error: { stdout: string }) => ({ stdout: error.stdout }))
  diagnostics = tsc.stdout.split('\n').filter((line) => line.includes(': error TS'))
}, 120_000)

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true })
})

describe('mcp-kit generate', () => {
  it('server-everything: the module and a caller compile under --strict; the caller gets typed results from the live server', async () => {
    expect(diagnostics.filter((line) => !line.startsWith('wrong.ts'))).toEqual([])
    const module = readFileSync(join(work, 'everything.ts'), 'utf8')
    expect(module).toContain("import * as kit from '@mcp-kit/client'")
    expect(module).toMatch(/ {3}\* @tool get-sum\n {3}\*\/\n {2}getSum\(args: GetSumArguments, /)
    const result = await runCaller('everything-caller.js')
    expect(result).toMatchObject({ code: 0 })
    const printed = JSON.parse(result.stdout)
    expect(printed).toMatchObject({ sum: 'The sum of 2 and 3 is 5.', echo: 'Echo: hi' })
    expect(typeof printed.temperature).toBe('number')
    expect(typeof printed.conditions).toBe('string')
  })

  it('a caller passing a string where the schema says number does not compile', () => {
    expect(diagnostics).toContain(
      "wrong.ts(3,23): error TS2322: Type 'string' is not assignable to type 'number'.",
    )
    expect(diagnostics.filter((line) => line.startsWith('wrong.ts'))).toHaveLength(1)
  })

  it('a module from a command line runs; once a tool gains a required parameter the same compiled caller refuses to run', async () => {
    const regenerate = `mcp-kit generate --out drift.ts -- ${process.execPath} ${fixtureServers.drift} ${variantFile}`
    expect(readFileSync(join(work, 'drift.ts'), 'utf8')).toContain(`//   ${regenerate}\n`)
    const before = await runCaller('drift-caller.js')
    expect(before.code).toBe(0)
    expect(JSON.parse(before.stdout)).toEqual([
      { type: 'text', text: '{"variant":"base","args":{"gene":"BRAF"}}' },
    ])
    const validated = await runCli(['profile', 'validate', 'drift.ts'], { cwd: work })
    expect(validated).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('the live tools match the module'),
    })

    writeFileSync(variantFile, 'new-required')
    const after = await runCaller('drift-caller.js')
    expect(after.code).toBe(5)
    expect(after.stdout).toBe('')
    expect(after.stderr).toContain('schema_changed: the tools of -- ')
    const change = "breaking: tool 'search': required parameter 'year' was added"
    expect(after.stderr).toContain(`changed since this module was generated: ${change}; `)
    expect(after.stderr).toContain(`regenerate it with: ${regenerate}`)
    const checked = await runCli(['profile', 'validate', 'drift.ts'], { cwd: work })
    expect(checked.code).toBe(5)
    expect(checked.stdout).toContain(change)
    expect(checked.stdout).toContain('(policy error)')
    expect(checked.stderr).toContain('drift.ts does not match the server')

    const warned = await runCaller('drift-warn.js')
    expect(warned.code).toBe(0)
    const { warnings, lookup, id } = JSON.parse(warned.stdout)
    expect(warnings).toEqual([expect.stringContaining(change)])
    expect(lookup).toEqual({ variant: 'new-required', id: 7 })
    expect(id).toBe(7)
    writeFileSync(variantFile, 'base')
  })

  it('a result field whose type changed is refused by connect() and by profile validate (exit 5), also under the breaking policy', async () => {
    const change = "breaking: tool 'lookup': result field 'id' changed type from integer to string"
    writeFileSync(variantFile, 'output-retyped')
    const refused = await runCaller('drift-caller.js')
    expect(refused).toMatchObject({ code: 5, stdout: '' })
    expect(refused.stderr).toContain(change)
    const checked = await runCli(['profile', 'validate', 'drift.ts'], { cwd: work })
    expect(checked.code).toBe(5)
    expect(checked.stdout).toContain(change)
    const underBreaking = await runCaller('drift-breaking-caller.js')
    expect(underBreaking.code).toBe(5)
    expect(underBreaking.stderr).toContain(change)
    const validated = await runCli(['profile', 'validate', 'drift-breaking.ts'], { cwd: work })
    expect(validated.code).toBe(5)
    // Under `warn` the change is let through, and the typed result lies (as every policy let it before).
    const ignored = await runCaller('drift-warn.js')
    expect(JSON.parse(ignored.stdout).lookup).toEqual({ variant: 'output-retyped', id: '7' })
    writeFileSync(variantFile, 'base')
  })

  it('under the breaking policy an added optional parameter passes, named in the warning; a renamed one is refused', async () => {
    const module = readFileSync(join(work, 'drift-breaking.ts'), 'utf8')
    expect(module).toContain('"schemaValidation": "breaking"')
    expect(module).toContain('// policy breaking); in CI')
    writeFileSync(variantFile, 'optional-added')
    const added = "non-breaking: tool 'search': optional parameter 'year' was added"
    const passed = await runCaller('drift-breaking-caller.js')
    expect(passed.code).toBe(0)
    const { warnings, search } = JSON.parse(passed.stdout)
    expect(warnings).toEqual([
      expect.stringContaining(`breaking none of its calls: ${added}; regenerate it with: `),
    ])
    expect(search).toEqual([{ type: 'text', text: '{"variant":"optional-added","args":{"gene":"BRAF"}}' }])
    const validated = await runCli(['profile', 'validate', 'drift-breaking.ts'], { cwd: work })
    expect(validated.code).toBe(0)
    expect(validated.stdout).toContain(added)
    expect(validated.stdout).toContain('(policy breaking)')
    // The module of the default policy refuses it; --policy breaking lets it through in CI.
    expect((await runCaller('drift-caller.js')).code).toBe(5)
    expect((await runCli(['profile', 'validate', 'drift.ts'], { cwd: work })).code).toBe(5)
    expect(
      (await runCli(['profile', 'validate', 'drift.ts', '--policy', 'breaking'], { cwd: work })).code,
    ).toBe(0)

    writeFileSync(variantFile, 'renamed')
    const renamed =
      "breaking: tool 'search': parameter 'gene' was removed and 'query' added with the same type: possibly renamed"
    const refused = await runCaller('drift-breaking-caller.js')
    expect(refused.code).toBe(5)
    expect(refused.stderr).toContain(renamed)
    const checked = await runCli(['profile', 'validate', 'drift-breaking.ts'], { cwd: work })
    expect(checked.code).toBe(5)
    expect(checked.stdout).toContain(renamed)
    writeFileSync(variantFile, 'base')
  })

  it('a secret of the reference (env.API_KEY=…) is ${API_KEY} in the module, read from the environment when it connects', async () => {
    const module = readFileSync(join(work, 'secret.ts'), 'utf8')
    expect(module).not.toContain(apiKey)
    expect(module).toContain('"API_KEY": "${API_KEY}"')
    expect(module).toContain('"MODE": "plain"')
    expect(module).toContain(
      `//   mcp-kit generate "mcp+node://${npmServers.everything}?env.API_KEY=\${API_KEY}&env.MODE=plain" --out secret.ts\n`,
    )
    const again = await generate('secret.ts', serverArgs('secret'))
    expect(again.stderr).toContain('mcp-kit: the module reads API_KEY from the environment when it connects')
    const missing = JSON.parse((await runCaller('secret-caller.js')).stdout)
    expect(missing).toEqual({
      code: 'missing_env',
      message: expect.stringContaining(
        'environment variable API_KEY is not set (the module uses it in env.API_KEY)',
      ),
    })
    const given = JSON.parse(
      (await runCaller('secret-caller.js', { API_KEY: 'from-the-environment' })).stdout,
    )
    expect(given).toEqual({ apiKey: 'from-the-environment' })
  })

  it('a module generated from a profile keeps its ${VAR} and ${secret:KEY} and expands them when it connects', async () => {
    const module = readFileSync(join(work, 'bio.ts'), 'utf8')
    expect(module).toContain('"${BIO_VARIANT_FILE}"')
    expect(module).toContain('"BIO_TOKEN": "${secret:bio/token}"')
    expect(module).toContain('"profile": "bio"')
    expect(module).not.toContain('s3cret')
    expect(module).toContain('//   mcp-kit generate @bio --out bio.ts\n')
    const missing = await runCaller('bio-caller.js', { BIO_VARIANT_FILE: join(work, 'bio-variant') })
    expect(JSON.parse(missing.stdout)).toEqual({
      code: 'missing_env',
      message: expect.stringContaining(
        "secret 'bio/token' is not set (profile @bio uses it in env.BIO_TOKEN)",
      ),
    })
    const given = await runCaller('bio-caller.js', {
      BIO_VARIANT_FILE: join(work, 'bio-variant'),
      BIO_SECRET: 's3cret',
    })
    expect(JSON.parse(given.stdout)).toEqual({ variant: 'base', id: 1 })
    // The CLI resolves the profile as any (its secret from the store) to check the module.
    const validated = await runCliAtHome(join(work, 'home'), work, ['profile', 'validate', 'bio.ts'], {
      env: { BIO_VARIANT_FILE: join(work, 'bio-variant') },
    })
    expect(validated).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('the live tools match the module'),
    })
  })

  it('regenerating an unchanged server gives a byte-identical file', async () => {
    for (const name of ['everything', 'conformance', 'drift-breaking']) {
      const first = readFileSync(join(work, `${name}.ts`))
      const again = await generate(`${name}.ts`, serverArgs(name))
      expect(again.code).toBe(0)
      expect(readFileSync(join(work, `${name}.ts`)).equals(first)).toBe(true)
    }
  })

  it('modules for server-filesystem, server-memory and the conformance fixture compile under --strict; a tool error rejects with ClientError', async () => {
    for (const file of ['filesystem.ts', 'memory.ts', 'conformance.ts', 'small-modules.ts'])
      expect(diagnostics.filter((line) => line.startsWith(file))).toEqual([])
    const conformanceModule = readFileSync(join(work, 'conformance.ts'), 'utf8')
    // $defs become named types; prompts and templated resources are typed too.
    expect(conformanceModule).toMatch(/export interface Address \{/)
    expect(conformanceModule).toContain('`test://template/${string}/data`')
    const result = await runCaller('conformance-caller.js')
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({ code: 'tool_error' })
  })

  it("a hostile server's names and schemas compile, and nothing it sends becomes code", () => {
    expect(diagnostics.filter((line) => line.startsWith('hostile'))).toEqual([])
    const module = readFileSync(join(work, 'hostile.ts'), 'utf8')
    expect(module).not.toMatch(/^[^/*\n ]*(declare const injected|console\.log|process\.exit)/m)
    expect(module).not.toContain('tsType')
    expect(module).toContain('owner?: DeleteToolArgumentsClient\n')
    expect(module).toContain('sum?: DeleteToolArgumentsGetSumArguments\n')
    expect(module).toContain('// A typed client for evil\\nconsole.log("injected") 1 */, written')
  })
})

describe('member names', () => {
  it('are camelCase, clear of reserved words and client members, and numbered in name order on collision', () => {
    const names = memberNames(
      ['get_sum', 'get-sum', 'getSum', 'delete', 'close', 'then', 'READ_FILE', 'getHTTPStatus', '3d', '---'],
      ['close', 'session'],
    )
    expect([...names]).toEqual([
      ['---', 'tool'],
      ['3d', 'tool3d'],
      ['READ_FILE', 'readFile'],
      ['close', 'closeTool'],
      ['delete', 'deleteTool'],
      ['get-sum', 'getSum'],
      ['getHTTPStatus', 'getHttpStatus'],
      ['getSum', 'getSum2'],
      ['get_sum', 'getSum3'],
      ['then', 'thenTool'],
    ])
  })
})
