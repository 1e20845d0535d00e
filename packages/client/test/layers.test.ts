// The client's layers (docs/architecture.md "Layers"): which folder of src/ may import which,
// read from the source, so that a dependency against the grain fails here.

import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const src = fileURLToPath(new URL('../src/', import.meta.url))

/**
 * The folders of src/ and what each may import besides itself and the shared files at the top
 * (errors.ts, server-spec.ts). Lowest first; a new folder takes a place here.
 */
const layers: Record<string, readonly string[]> = {
  protocol: [],
  http: ['protocol'],
  stdio: ['protocol'],
  auth: ['http'],
  session: ['protocol'],
  connect: ['protocol', 'http', 'stdio', 'auth', 'session'],
  generated: ['protocol', 'session', 'connect'],
}

/** Imports of types only that a folder may make besides: a session reports its stdio server's process. */
const typeLayers: Record<string, readonly string[]> = {
  session: ['stdio'],
}

/** The entries, public and internal: they may import any folder, and no file imports them. */
const entryFiles = ['index.ts', 'internal.ts']

/** What would make protocol/ a transport: spawning, sockets, HTTP. */
const transportModules = ['node:child_process', 'node:http', 'node:https', 'node:net', 'undici']

interface Import {
  /** The importing file, relative to src/. */
  file: string
  specifier: string
  /** The imported file relative to src/, for a relative specifier. */
  target: string | undefined
  typeOnly: boolean
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

/** Static imports and re-exports, `import()` calls and `import('…')` types of one file. */
function importsOf(path: string, text: string = readFileSync(path, 'utf8')): Import[] {
  const file = relative(src, path).split(sep).join('/')
  const imports: Import[] = []
  const add = (specifier: string, typeOnly: boolean) => {
    const target = specifier.startsWith('.')
      ? relative(src, resolve(dirname(path), specifier.replace(/\.js$/, '.ts')))
          .split(sep)
          .join('/')
      : undefined
    imports.push({ file, specifier, target, typeOnly })
  }
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause
      const bindings = clause?.namedBindings
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            bindings !== undefined &&
            ts.isNamedImports(bindings) &&
            bindings.elements.length > 0 &&
            bindings.elements.every((element) => element.isTypeOnly)))
      add(node.moduleSpecifier.text, typeOnly)
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      add(node.moduleSpecifier.text, node.isTypeOnly)
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      add(node.arguments[0].text, false)
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      add(node.argument.literal.text, true)
    }
    ts.forEachChild(node, visit)
  }
  visit(ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true))
  return imports
}

/** The folder of a file relative to src/; '.' for the files at the top. */
function folderOf(file: string): string {
  return file.includes('/') ? (file.split('/')[0] as string) : '.'
}

/** The imports that break the rules above, one line each. */
function violations(imports: readonly Import[]): string[] {
  const found: string[] = []
  for (const { file, specifier, target, typeOnly } of imports) {
    const from = folderOf(file)
    if (from === 'protocol' && transportModules.includes(specifier))
      found.push(`${file} imports ${specifier}: protocol/ is no transport`)
    if (target === undefined || entryFiles.includes(file)) continue
    const to = folderOf(target)
    if (to === from) continue
    if (from === '.') {
      found.push(`${file} imports ${specifier}: the shared files at the top import no folder`)
      continue
    }
    if (to === '.' && !entryFiles.includes(target)) continue
    if (layers[from]?.includes(to)) continue
    if (typeOnly && typeLayers[from]?.includes(to)) continue
    found.push(`${file} imports ${specifier}: ${from}/ may not import ${to === '.' ? target : `${to}/`}`)
  }
  return found
}

/** Cycles in a graph, one line each (depth first; each cycle found from its first node reached). */
function cyclesOf(edges: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const cycles: string[] = []
  const state = new Map<string, 'open' | 'done'>()
  const visit = (node: string, path: string[]): void => {
    if (state.get(node) === 'open') {
      cycles.push([...path.slice(path.indexOf(node)), node].join(' → '))
      return
    }
    if (state.get(node) === 'done') return
    state.set(node, 'open')
    for (const next of edges.get(node) ?? []) visit(next, [...path, node])
    state.set(node, 'done')
  }
  for (const node of edges.keys()) visit(node, [])
  return cycles
}

/** Cycles in the graph of folders (an edge for every import from one folder into another). */
function folderCycles(imports: readonly Import[]): string[] {
  const edges = new Map<string, Set<string>>()
  for (const { file, target } of imports) {
    if (target === undefined || entryFiles.includes(file)) continue
    const from = folderOf(file)
    const to = folderOf(target)
    if (from !== to) edges.set(from, (edges.get(from) ?? new Set()).add(to))
  }
  return cyclesOf(edges)
}

/** Cycles in the graph of files, type-only imports included (as `madge --circular` counts them). */
function fileCycles(imports: readonly Import[]): string[] {
  const edges = new Map<string, Set<string>>()
  for (const { file, target } of imports) {
    if (target !== undefined) edges.set(file, (edges.get(file) ?? new Set()).add(target))
  }
  return cyclesOf(edges)
}

const files = sourceFiles(src)
const imports = files.flatMap((path) => importsOf(path))

describe('the layers of src/', () => {
  it('few files at the top, every folder one of the layers', () => {
    const entries = readdirSync(src, { withFileTypes: true })
    expect(entries.filter((entry) => entry.isFile()).length).toBeLessThanOrEqual(12)
    expect(
      entries
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort(),
    ).toEqual(Object.keys(layers).sort())
  })

  it('each folder imports only the folders below it; protocol/ no transport', () => {
    expect(violations(imports)).toEqual([])
  })

  it('no cycle between folders', () => {
    expect(folderCycles(imports)).toEqual([])
  })

  it('no cycle between files, type-only imports included', () => {
    expect(fileCycles(imports)).toEqual([])
    const cyclic = [
      ...importsOf(join(src, 'session/a.ts'), "import type { B } from './b.js'"),
      ...importsOf(join(src, 'session/b.ts'), "import { a } from './a.js'"),
    ]
    expect(fileCycles(cyclic)).toEqual(['session/a.ts → session/b.ts → session/a.ts'])
  })

  it('an import against the grain is caught', () => {
    const check = (file: string, text: string) => violations(importsOf(join(src, file), text))
    expect(
      check('http/example.ts', "import { ProcessTransport } from '../stdio/process-transport.js'"),
    ).toEqual(['http/example.ts imports ../stdio/process-transport.js: http/ may not import stdio/'])
    expect(check('protocol/example.ts', "const spawn = await import('node:child_process')")).toEqual([
      'protocol/example.ts imports node:child_process: protocol/ is no transport',
    ])
    expect(
      check('session/example.ts', "import { ProcessTransport } from '../stdio/process-transport.js'"),
    ).toEqual(['session/example.ts imports ../stdio/process-transport.js: session/ may not import stdio/'])
    expect(
      check('session/example.ts', "import type { ProcessTransport } from '../stdio/process-transport.js'"),
    ).toEqual([])
    expect(check('errors.ts', "import type { Session } from './session/session.js'")).toEqual([
      'errors.ts imports ./session/session.js: the shared files at the top import no folder',
    ])
    expect(check('internal.ts', "export { connect } from './connect/connect.js'")).toEqual([])
    expect(check('session/example.ts', "import { processRunning } from '../internal.js'")).toEqual([
      'session/example.ts imports ../internal.js: session/ may not import internal.ts',
    ])
  })
})
