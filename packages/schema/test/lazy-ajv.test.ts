// @module-tag integration
// The CLI imports this package on every start-up; ajv costs tens of milliseconds to load, so
// the built entry must not load it until something is validated.
import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'

const packageDirectory = fileURLToPath(new URL('..', import.meta.url))
// Inside node_modules so that the build resolves `ajv` exactly as dist/ does, and git ignores it.
const outputDirectory = fileURLToPath(new URL('../node_modules/.lazy-ajv-test-dist/', import.meta.url))

beforeAll(() => {
  const compiler = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url))
  execFileSync(process.execPath, [compiler, '-p', 'tsconfig.build.json', '--outDir', outputDirectory], {
    cwd: packageDirectory,
  })
})

afterAll(() => {
  rmSync(outputDirectory, { recursive: true, force: true })
})

it('does not load ajv when the built entry is imported, only on first validation', () => {
  const entry = pathToFileURL(`${outputDirectory}index.js`).href
  const script = `
    import { createRequire } from 'node:module'
    const require = createRequire(import.meta.url)
    const loadedAjvModules = () => Object.keys(require.cache).filter((path) => /[\\\\/]ajv(-formats)?[\\\\/]/.test(path)).length
    const schema = await import(${JSON.stringify(entry)})
    schema.hashTools([{ name: 'a' }])
    schema.coerceArguments({ a: '1' }, { properties: { a: { type: 'integer' } } })
    const afterImport = loadedAjvModules()
    const result = schema.validateArguments({ a: 1 }, { type: 'object' })
    console.log(JSON.stringify({ afterImport, afterValidation: loadedAjvModules(), result }))
  `
  const output = execFileSync(process.execPath, ['--input-type=module', '--eval', script], {
    encoding: 'utf8',
  })
  const report = JSON.parse(output) as { afterImport: number; afterValidation: number; result: unknown }
  expect(report.afterImport).toBe(0)
  expect(report.afterValidation).toBeGreaterThan(0)
  expect(report.result).toEqual({ ok: true })
})
