// @module-tag integration
// The built declarations as a user's compiler sees them: test/types/usage.ts (a program using
// @mcp-kit/server, with a zod schema) compiles against dist/ under strict,
// exactOptionalPropertyTypes, noUncheckedIndexedAccess and skipLibCheck: false, with every .d.ts
// of dist/ in the program so that each is checked; and no .d.ts imports a package the server does
// not depend on.

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

it('a program using the server compiles under the strictest settings, every declaration checked', {
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
  const declarations = declarationFiles(join(root, 'dist'))
  const program = ts.createProgram({
    rootNames: [...config.fileNames, ...declarations],
    options: config.options,
  })
  // The server as published (dist/), not its sources.
  const files = program.getSourceFiles().map((file) => file.fileName)
  expect(files).toContain(join(root, 'dist/index.d.ts'))
  expect(files.some((file) => file.startsWith(join(root, 'src')))).toBe(false)
  const problems = ts.formatDiagnostics(ts.getPreEmitDiagnostics(program), {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => root,
    getNewLine: () => '\n',
  })
  expect(problems).toBe('')
})

it('the declarations import only node: modules, their own files and the dependencies', () => {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>
    peerDependencies?: Record<string, string>
  }
  const allowed = new Set([
    ...Object.keys(manifest.dependencies),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ])
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
