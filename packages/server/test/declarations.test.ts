// @module-tag integration
// The built declarations as a user's compiler sees them: test/types/usage.ts (a program using
// @mcp-kit/server, with a zod schema) compiles against dist/ under strict,
// exactOptionalPropertyTypes, noUncheckedIndexedAccess and skipLibCheck: false, with every .d.ts
// of dist/ in the program so that each is checked; and no .d.ts imports a package the server does
// not depend on.

import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { declarationFiles, foreignImports, programProblems, readConfig } from '@mcp-kit/fixtures/declarations'
import ts from 'typescript'
import { expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))

it('a program using the server compiles under the strictest settings, every declaration checked', {
  timeout: 120_000,
}, () => {
  const configPath = join(root, 'test/types/tsconfig.json')
  const config = readConfig(ts, configPath)
  expect(config.options).toMatchObject({ exactOptionalPropertyTypes: true, skipLibCheck: false })
  const declarations = declarationFiles(join(root, 'dist'))
  const program = ts.createProgram({
    rootNames: [...config.fileNames, ...declarations],
    options: config.options,
  })
  // The server as published (dist/), not its sources.
  const files = program.getSourceFiles().map((file) => file.fileName)
  expect(files).toContain(join(root, 'dist/index.d.ts'))
  expect(files.some((file) => file.startsWith(join(root, 'src')))).toBe(false)
  const problems = programProblems(ts, program, root)
  expect(problems).toBe('')
})

it('the declarations import only node: modules, their own files and the dependencies', () => {
  expect(foreignImports(root)).toEqual({})
})
