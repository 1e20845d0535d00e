// @module-tag integration
// The built declarations as a user's compiler sees them: test/types/exchange.ts (a program using
// @mcp-kit/client with @mcp-kit/schema) compiles against dist/ under strict,
// exactOptionalPropertyTypes, noUncheckedIndexedAccess and skipLibCheck: false, so every .d.ts it
// reaches is checked too; and no .d.ts imports a package the client does not depend on.

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { foreignImports, programProblems, readConfig } from '@mcp-kit/fixtures/declarations'
import ts from 'typescript'
import { expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))

it('a program using the client and @mcp-kit/schema compiles under the strictest settings, declarations checked', {
  timeout: 120_000,
}, () => {
  const configPath = join(root, 'test/types/tsconfig.json')
  const config = readConfig(ts, configPath)
  expect(config.options).toMatchObject({ exactOptionalPropertyTypes: true, skipLibCheck: false })
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options })
  const files = program.getSourceFiles().map((file) => file.fileName)
  // The client and the schema package as published (dist/), not their sources.
  expect(files).toContain(join(root, 'dist/index.d.ts'))
  expect(files.some((file) => /\/schema\/dist\/index\.d\.ts$/.test(file))).toBe(true)
  const problems = programProblems(ts, program, root)
  expect(problems).toBe('')
})

it("Session's constructor is private: connect() is the way in, and no internal type is published through it", () => {
  const text = readFileSync(join(root, 'dist/session/session.d.ts'), 'utf8')
  const declared = /^export declare class Session \{$[\s\S]*?^\}$/m.exec(text)?.[0] ?? ''
  expect(declared).toMatch(/^\s*private constructor\(\);$/m)
  expect(declared).not.toMatch(/failPending|receiveNotification/)
})

it('the declarations import only node: modules, their own files and the dependencies', () => {
  expect(foreignImports(root)).toEqual({})
})
