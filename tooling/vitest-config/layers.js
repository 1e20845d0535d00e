// The layers of a package's src/ (docs/architecture.md "Layers"), read from the source: which
// folder imports which, and the import cycles between folders and between files. Each package's
// test/layers.test.ts holds its own table to this reading, so a dependency against the grain, a
// folder missing from the table or a cycle fails there. The TypeScript compiler is passed in (the
// packages' own), so this package needs none.

import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, posix, relative, sep } from 'node:path'

/**
 * The `.ts` and `.tsx` files under `src` (test files left out), by their path relative to it, with their text.
 * @param {string} src
 * @returns {Map<string, string>}
 */
export function sourceFiles(src) {
  const files = new Map()
  const walk = (directory) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
        files.set(relative(src, path).split(sep).join('/'), readFileSync(path, 'utf8'))
    }
  }
  walk(src)
  return files
}

/**
 * Static imports and re-exports, `import()` calls and `import('…')` types of one file.
 * @param {typeof import('typescript')} ts
 * @param {string} file relative to src/
 * @param {string} text
 */
export function importsOf(ts, file, text) {
  const imports = []
  const add = (specifier, typeOnly) => {
    const target = specifier.startsWith('.')
      ? posix.normalize(posix.join(posix.dirname(file), specifier.replace(/\.js$/, '.ts')))
      : undefined
    imports.push({ file, specifier, target, typeOnly })
  }
  const visit = (node) => {
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
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true))
  return imports
}

/** The folder of a file relative to src/, `depth` levels deep; '' for the files at the top. */
export function folderOf(file, depth = 1) {
  const parts = file.split('/').slice(0, -1)
  return parts.slice(0, depth).join('/')
}

/** Cycles in a graph, one line each (depth first; each found from the first node reached). */
export function cyclesOf(edges) {
  const cycles = []
  const state = new Map()
  const visit = (node, path) => {
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

/**
 * Reads `files` (default: the source under `src`) and says where it breaks `rules`.
 * @param {typeof import('typescript')} ts
 * @param {string} src
 * @param {import('./layers.js').LayerRules} rules
 * @param {Map<string, string>} [files]
 * @returns {import('./layers.js').LayersReport}
 */
export function checkLayers(ts, src, rules, files = sourceFiles(src)) {
  const { layers, typeLayers = {}, entries = ['index.ts', 'internal.ts'], topImportsTypes = false } = rules
  const imports = [...files].flatMap(([file, text]) => importsOf(ts, file, text))
  const folders = new Set([...files.keys()].map((file) => folderOf(file)).filter((folder) => folder !== ''))
  const unplaced = [
    ...[...folders].filter((folder) => !(folder in layers)).map((folder) => `${folder}/ is in no layer`),
    ...Object.keys(layers)
      .filter((folder) => !folders.has(folder))
      .map((folder) => `${folder}/ is in the table but not in src/`),
  ]
  const violations = []
  for (const { file, specifier, target, typeOnly } of imports) {
    // Styles, JSON and the like are data to the layers.
    if (target === undefined || !/\.tsx?$/.test(target)) continue
    if (!files.has(target)) {
      violations.push(`${file} imports ${specifier}: no such file in src/`)
      continue
    }
    if (entries.includes(target) && !entries.includes(file)) {
      violations.push(`${file} imports ${specifier}: no file imports an entry (${entries.join(', ')})`)
      continue
    }
    if (entries.includes(file)) continue
    const from = folderOf(file)
    const to = folderOf(target)
    if (to === from) continue
    if (from === '') {
      if (!(typeOnly && topImportsTypes))
        violations.push(`${file} imports ${specifier}: the shared files at the top import no folder`)
      continue
    }
    if (to === '') continue
    if (layers[from]?.includes(to)) continue
    if (typeOnly && typeLayers[from]?.includes(to)) continue
    violations.push(`${file} imports ${specifier}: ${from}/ may not import ${to}/`)
  }
  const folderEdges = new Map()
  const fileEdges = new Map()
  for (const { file, target, typeOnly } of imports) {
    if (target === undefined || !files.has(target)) continue
    fileEdges.set(file, (fileEdges.get(file) ?? new Set()).add(target))
    if (entries.includes(file)) continue
    // The types the top may name from a folder are no dependency of the folders on each other;
    // a cycle of files through them still shows in fileCycles.
    if (typeOnly && topImportsTypes && folderOf(file) === '') continue
    const from = folderOf(file) || '(top)'
    const to = folderOf(target) || '(top)'
    if (from !== to) folderEdges.set(from, (folderEdges.get(from) ?? new Set()).add(to))
  }
  return {
    files: files.size,
    unplaced,
    violations,
    folderCycles: cyclesOf(folderEdges),
    fileCycles: cyclesOf(fileEdges),
  }
}

/** Folders at the top of test/ that mirror nothing in src/: what tests share, fixture files, type programs. */
export const testSupportFolders = ['helpers', 'fixtures', 'types']

/**
 * Where `test` does not mirror `src` (CONTRIBUTING.md "Tests"): a folder of test/ that is no folder
 * of src/, and a module beside the tests that is no test (what tests share goes to test/helpers/).
 * The folders of `support` at the top of test/ hold anything; `__snapshots__` may sit anywhere.
 * @param {string} src
 * @param {string} test
 * @param {{ support?: readonly string[] }} [options]
 * @returns {string[]} one line each, paths relative to the package (`test/…`)
 */
export function unmirroredTests(src, test, options = {}) {
  const { support = testSupportFolders } = options
  const found = []
  const walk = (relativePath) => {
    for (const entry of readdirSync(join(test, relativePath), { withFileTypes: true })) {
      const path = relativePath === '' ? entry.name : `${relativePath}/${entry.name}`
      if (entry.isDirectory()) {
        if (entry.name === '__snapshots__' || (relativePath === '' && support.includes(entry.name))) continue
        if (!statSync(join(src, path), { throwIfNoEntry: false })?.isDirectory())
          found.push(`test/${path}/ is no folder of src/`)
        else walk(path)
      } else if (/\.[cm]?[jt]sx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
        found.push(`test/${path} is no test: what tests share goes to test/helpers/`)
    }
  }
  walk('')
  return found
}
