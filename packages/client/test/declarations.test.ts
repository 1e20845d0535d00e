// @module-tag integration
// The built declarations as a user's compiler sees them: test/types/exchange.ts (a program using
// @mcp-kit/client with @mcp-kit/schema) compiles against dist/ under strict,
// exactOptionalPropertyTypes, noUncheckedIndexedAccess and skipLibCheck: false, so every .d.ts it
// reaches is checked too; and no .d.ts imports a package the client does not depend on.

import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))

function declarationFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) return declarationFiles(path)
    return entry.name.endsWith('.d.ts') ? [path] : []
  })
}

it('a program using the client and @mcp-kit/schema compiles under the strictest settings, declarations checked', {
  timeout: 120_000,
}, () => {
  const configPath = join(root, 'test/types/tsconfig.json')
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))
      },
    },
  )
  if (config === undefined) throw new Error(`cannot read ${configPath}`)
  expect(config.options).toMatchObject({ exactOptionalPropertyTypes: true, skipLibCheck: false })
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options })
  const files = program.getSourceFiles().map((file) => file.fileName)
  // The client and the schema package as published (dist/), not their sources.
  expect(files).toContain(join(root, 'dist/index.d.ts'))
  expect(files.some((file) => /\/schema\/dist\/index\.d\.ts$/.test(file))).toBe(true)
  const problems = ts.formatDiagnostics(ts.getPreEmitDiagnostics(program), {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => root,
    getNewLine: () => '\n',
  })
  expect(problems).toBe('')
})

it("Session's constructor is private: connect() is the way in, and no internal type is published through it", () => {
  const text = readFileSync(join(root, 'dist/session/session.d.ts'), 'utf8')
  const declared = /^export declare class Session \{$[\s\S]*?^\}$/m.exec(text)?.[0] ?? ''
  expect(declared).toMatch(/^\s*private constructor\(\);$/m)
  expect(declared).not.toMatch(/failPending|receiveNotification/)
})

it('the declarations import only node: modules, their own files and the dependencies', () => {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>
  }
  const allowed = new Set(Object.keys(manifest.dependencies))
  const imported = new Map<string, string[]>()
  for (const file of declarationFiles(join(root, 'dist'))) {
    const text = readFileSync(file, 'utf8')
    for (const [, specifier] of text.matchAll(/(?:from|import\()\s*['"]([^'"]+)['"]/g)) {
      if (specifier === undefined || specifier.startsWith('.') || specifier.startsWith('node:')) continue
      const name = specifier.startsWith('@')
        ? specifier.split('/').slice(0, 2).join('/')
        : (specifier.split('/')[0] ?? '')
      if (!allowed.has(name)) imported.set(name, [...(imported.get(name) ?? []), file.slice(root.length)])
    }
  }
  expect(Object.fromEntries(imported)).toEqual({})
})
