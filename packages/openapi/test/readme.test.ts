// The README's TypeScript example compiles under the strictest settings (strict,
// exactOptionalPropertyTypes, noUncheckedIndexedAccess…) against this package's source, as a
// user's code would against the published types.

import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { expect, test } from 'vitest'

const here = fileURLToPath(new URL('.', import.meta.url))

test("the README's example compiles under the strictest settings", () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
  const example = /```ts\n([\s\S]*?)```/.exec(readme)?.[1]
  expect(example).toBeDefined()
  const file = `${here}readme-example.ts`
  const options: ts.CompilerOptions = {
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    noImplicitOverride: true,
    noImplicitReturns: true,
    noFallthroughCasesInSwitch: true,
    noPropertyAccessFromIndexSignature: true,
    verbatimModuleSyntax: true,
    isolatedModules: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    types: ['node'],
    skipLibCheck: true,
    noEmit: true,
    baseUrl: here,
    paths: { '@mcp-kit/openapi': ['../src/index.ts'] },
    // Sibling packages' types from their source too (their `@mcp-kit/source` export), so no build is needed.
    customConditions: ['@mcp-kit/source'],
  }
  const host = ts.createCompilerHost(options)
  const { getSourceFile, fileExists, readFile } = host
  host.fileExists = (name) => name === file || fileExists.call(host, name)
  host.readFile = (name) => (name === file ? example : readFile.call(host, name))
  host.getSourceFile = (name, language, ...rest) =>
    name === file
      ? ts.createSourceFile(name, example as string, language)
      : getSourceFile.call(host, name, language, ...rest)
  const program = ts.createProgram([file], options, host)
  // The example's own problems: the package's source is the published types' stand-in here.
  const problems = ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.file === undefined || diagnostic.file.fileName === file)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))
  expect(problems).toEqual([])
}, 60_000)
