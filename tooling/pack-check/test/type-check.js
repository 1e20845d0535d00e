// Type-checking in the packed project with the typescript installed there from npm, as `tsc -p`
// would (the tsconfig files are written to the project, so a failure can be reproduced there with
// `npx tsc -p <dir>`), but in-process with parsed files shared between programs.

import { mkdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, relative } from 'node:path'

/**
 * The strictest settings a user may have: @tsconfig/strictest, what `tsc --init` turns on, and
 * `skipLibCheck: false`, so the packages' own declarations are checked too.
 */
export const strictestOptions = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noPropertyAccessFromIndexSignature: true,
  noImplicitOverride: true,
  noImplicitReturns: true,
  noFallthroughCasesInSwitch: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  allowUnusedLabels: false,
  allowUnreachableCode: false,
  isolatedModules: true,
  verbatimModuleSyntax: true,
  noUncheckedSideEffectImports: true,
  forceConsistentCasingInFileNames: true,
  skipLibCheck: false,
  module: 'nodenext',
  moduleResolution: 'nodenext',
  target: 'es2022',
  lib: ['es2023'],
  types: ['node'],
  noEmit: true,
}

/**
 * @typedef {{ file: string | undefined, line: number, column: number, code: string, message: string }} Problem
 * `file` is relative to the project; `line` and `column` are 1-based.
 */

/** @param {string} project */
export function createChecker(project) {
  const ts = createRequire(join(project, 'package.json'))('typescript')
  /** @type {Map<string, unknown>} */
  const sourceFiles = new Map()

  /**
   * Writes `<directory>/tsconfig.json` and creates that program.
   * @param {string} directory relative to the project
   * @param {{ files?: string[], include?: string[], compilerOptions?: Record<string, unknown> }} config
   */
  function createProgram(directory, config) {
    const configPath = join(project, directory, 'tsconfig.json')
    const { compilerOptions = {}, ...rest } = config
    mkdirSync(join(project, directory), { recursive: true })
    writeFileSync(
      configPath,
      `${JSON.stringify({ compilerOptions: { ...strictestOptions, ...compilerOptions }, ...rest }, null, 2)}\n`,
    )
    const parsed = ts.getParsedCommandLineOfConfigFile(
      configPath,
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
          throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))
        },
      },
    )
    const host = ts.createCompilerHost(parsed.options)
    const { getSourceFile } = host
    // Declarations in node_modules do not change between programs: parse each once. The
    // examples' own files are written fresh by each test run, so they are not kept.
    host.getSourceFile = (fileName, languageVersion, ...more) => {
      if (!fileName.includes('/node_modules/'))
        return getSourceFile.call(host, fileName, languageVersion, ...more)
      const key = `${fileName}\0${JSON.stringify(languageVersion)}`
      if (!sourceFiles.has(key))
        sourceFiles.set(key, getSourceFile.call(host, fileName, languageVersion, ...more))
      return sourceFiles.get(key)
    }
    const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, host })
    return { program, errors: parsed.errors }
  }

  /**
   * Writes `<directory>/tsconfig.json` and checks that program, as `tsc -p <directory>` would.
   * @param {string} directory relative to the project
   * @param {{ files?: string[], include?: string[], compilerOptions?: Record<string, unknown> }} config
   * @returns {Problem[]}
   */
  function check(directory, config) {
    return checkProgram(directory, config).problems
  }

  /**
   * `check`, and the files the program read (relative to the project).
   * @param {string} directory relative to the project
   * @param {{ files?: string[], include?: string[], compilerOptions?: Record<string, unknown> }} config
   * @returns {{ problems: Problem[], files: string[] }}
   */
  function checkProgram(directory, config) {
    const { program, errors } = createProgram(directory, config)
    const problems = [...errors, ...ts.getPreEmitDiagnostics(program)].map((diagnostic) => {
      const position =
        diagnostic.file && diagnostic.start !== undefined
          ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start)
          : undefined
      return {
        file: diagnostic.file ? relative(project, diagnostic.file.fileName) : undefined,
        line: (position?.line ?? 0) + 1,
        column: (position?.character ?? 0) + 1,
        code: `TS${diagnostic.code}`,
        message: ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
      }
    })
    const files = program.getSourceFiles().map((file) => relative(project, file.fileName))
    return { problems, files }
  }

  /**
   * The names a user can import from these specifiers (values and types), sorted.
   * @param {string[]} specifiers
   */
  function exportedNames(specifiers) {
    const directory = `exports/${specifiers[0]?.replace(/[^\w.-]+/g, '-')}`
    const source = specifiers
      .map((specifier, index) => `export * as entry${index} from '${specifier}'\n`)
      .join('')
    mkdirSync(join(project, directory), { recursive: true })
    writeFileSync(join(project, directory, 'entry.ts'), source)
    const { program } = createProgram(directory, { files: ['entry.ts'] })
    const typeChecker = program.getTypeChecker()
    const entry = program.getSourceFile(join(project, directory, 'entry.ts'))
    const names = new Set()
    for (const statement of entry?.statements ?? []) {
      const symbol = typeChecker.getSymbolAtLocation(statement.moduleSpecifier)
      if (!symbol) throw new Error(`${directory}/entry.ts: a module it exports is not found`)
      for (const exported of typeChecker.getExportsOfModule(symbol)) names.add(exported.name)
    }
    return [...names].sort()
  }

  /**
   * Plain JavaScript for an example that was checked: types stripped, imports kept.
   * @param {string} code
   */
  function transpile(code) {
    return ts.transpileModule(code, {
      compilerOptions: {
        module: ts.ModuleKind.ESNext,
        target: ts.ScriptTarget.ES2022,
        verbatimModuleSyntax: true,
      },
    }).outputText
  }

  return { ts, check, checkProgram, exportedNames, transpile, version: ts.version }
}

/** @param {Problem} problem */
export function formatProblem(problem) {
  const where = problem.file ? `${problem.file}(${problem.line},${problem.column}): ` : ''
  return `${where}${problem.code}: ${problem.message.replaceAll('\n', '\n    ')}`
}
