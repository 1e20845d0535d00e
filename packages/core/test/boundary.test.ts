// The boundary of the shared vocabulary: no package but this one writes a JSON-RPC error code
// (-32768…-32000) as a number, a protocol revision as a string, its own `Mcp-Name` method table,
// its own `isRecord` (under any name, narrowing to any type) or its own error brand. Comments may
// name them; code imports them from @mcp-kit/core. One line per offence.

import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { expect, test } from 'vitest'
import { protocolVersions } from '../src/index.js'

const root = fileURLToPath(new URL('../../../', import.meta.url))
const versions = new Set(protocolVersions)

/**
 * Copies of isRecord that narrow to a type of their file's own (`type Schema = Record<string,
 * unknown>`), as `file#name`. None is left; each entry must still be found, so the list only
 * shrinks (a new copy imports isRecord from @mcp-kit/core instead).
 */
const localNarrowings: string[] = []

/** The test of isRecord's body on the parameter `name`, spaces removed. */
const recordTest = (name: string) => `typeof${name}==='object'&&${name}!==null&&!Array.isArray(${name})`

/** The name of a one-parameter type guard whose whole body is isRecord's test, or undefined. */
function recordGuardName(node: ts.Node, source: ts.SourceFile): string | undefined {
  let name: ts.Identifier | undefined
  let fn: ts.SignatureDeclaration & { body?: ts.ConciseBody | undefined }
  if (ts.isFunctionDeclaration(node) && node.name !== undefined) {
    name = node.name
    fn = node
  } else if (
    ts.isVariableDeclaration(node) &&
    ts.isIdentifier(node.name) &&
    node.initializer !== undefined &&
    (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))
  ) {
    name = node.name
    fn = node.initializer
  } else return undefined
  const [parameter] = fn.parameters
  if (fn.parameters.length !== 1 || parameter === undefined || !ts.isIdentifier(parameter.name))
    return undefined
  if (fn.type === undefined || !ts.isTypePredicateNode(fn.type) || fn.body === undefined) return undefined
  let returned: ts.Node | undefined = fn.body
  if (ts.isBlock(fn.body)) {
    const [only] = fn.body.statements
    returned =
      fn.body.statements.length === 1 && only !== undefined && ts.isReturnStatement(only)
        ? only.expression
        : undefined
  }
  if (returned === undefined) return undefined
  const text = returned
    .getText(source)
    .replace(/\s+/g, '')
    .replace(/^\((.*)\)$/, '$1')
  return text === recordTest(parameter.name.text) ? name.text : undefined
}

/** The src/ folders of every package but core, and of the app. */
function sourceFolders(): string[] {
  const packages = readdirSync(join(root, 'packages'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'core')
    .map((entry) => join(root, 'packages', entry.name, 'src'))
  return [...packages, join(root, 'apps', 'mcp-kit', 'src')]
}

function sourceFiles(folder: string): string[] {
  let entries: import('node:fs').Dirent[]
  try {
    entries = readdirSync(folder, { withFileTypes: true, recursive: true })
  } catch {
    return []
  }
  return entries
    .filter(
      (entry) => entry.isFile() && /\.(m?ts|tsx|m?js)$/.test(entry.name) && !entry.name.endsWith('.d.ts'),
    )
    .map((entry) => join(entry.parentPath, entry.name))
}

/** Each copy of the shared vocabulary in `text`, as `what` at a 1-based line (`guard`: a narrowing's name). */
export function findCopies(
  fileName: string,
  text: string,
): Array<{ line: number; what: string; guard?: string }> {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind)
  const found: Array<{ line: number; what: string; guard?: string }> = []
  const at = (node: ts.Node, what: string, guard?: string) =>
    found.push({
      line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
      what,
      ...(guard === undefined ? {} : { guard }),
    })
  const visit = (node: ts.Node): void => {
    if (
      ts.isPrefixUnaryExpression(node) &&
      node.operator === ts.SyntaxKind.MinusToken &&
      ts.isNumericLiteral(node.operand)
    ) {
      const value = Number(node.operand.text)
      if (value >= 32000 && value <= 32768) at(node, `JSON-RPC code -${node.operand.text}: use rpcCodes`)
    }
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && versions.has(node.text)) {
      at(node, `protocol revision '${node.text}': use the lists of @mcp-kit/core`)
    }
    if (ts.isStringLiteral(node) && node.text === 'mcp-kit.error') {
      at(node, 'the error brand: extend KitError, test with isKitError')
    }
    if (ts.isObjectLiteralExpression(node)) {
      const keys = node.properties.flatMap((property) =>
        ts.isPropertyAssignment(property) && ts.isStringLiteral(property.name) ? [property.name.text] : [],
      )
      if (keys.includes('tools/call') && keys.includes('resources/read') && keys.includes('prompts/get')) {
        at(node, "a method table like Mcp-Name's: use mcpNameField")
      }
    }
    const guard = recordGuardName(node, source)
    if (
      (ts.isFunctionDeclaration(node) || ts.isVariableDeclaration(node)) &&
      node.name !== undefined &&
      ts.isIdentifier(node.name) &&
      /^is(Object|Record|PlainObject)$/.test(node.name.text) &&
      /\bvalue is Record<string, unknown>/.test(node.getText(source))
    ) {
      at(node, `${node.name.text}, a copy of isRecord: use @mcp-kit/core's`)
    } else if (guard !== undefined) {
      at(node, `${guard}, a copy of isRecord narrowing to another type: use @mcp-kit/core's`, guard)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

test('the checks find what they look for (a copy of each kind)', () => {
  const copy = [
    "const versions = ['2026-07-28', `2025-06-18`]",
    'const code = -32602',
    "const named = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' }",
    '// a comment may say -32602 and 2025-11-25',
    "const fine = ['2025-01-01', 32602, -1]",
    'function isObject(value: unknown): value is Record<string, unknown> {',
    "  return typeof value === 'object' && value !== null && !Array.isArray(value)",
    '}',
    'const isRecord = (value: unknown): value is Record<string, unknown> => value !== null',
    "const brand = Symbol.for('mcp-kit.error')",
    'function isSchema(node: unknown): node is Schema {',
    "  return typeof node === 'object' && node !== null && !Array.isArray(node)",
    '}',
    "const isJson = (v: unknown): v is Json => (typeof v === 'object' && v !== null && !Array.isArray(v))",
    "const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null",
    "const record = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v)",
  ].join('\n')
  const found = findCopies('copy.ts', copy)
  expect(found.map((entry) => entry.line)).toEqual([1, 1, 2, 3, 6, 9, 10, 11, 14])
  expect(found.flatMap((entry) => (entry.guard === undefined ? [] : [entry.guard]))).toEqual([
    'isSchema',
    'isJson',
  ])
})

test('no package but @mcp-kit/core keeps a copy of the shared vocabulary', () => {
  const folders = sourceFolders()
  expect(folders.length).toBeGreaterThan(8)
  const offences: string[] = []
  const unseen = new Set(localNarrowings)
  let files = 0
  for (const folder of folders) {
    for (const file of sourceFiles(folder)) {
      files++
      const path = relative(root, file).split(sep).join('/')
      for (const { line, what, guard } of findCopies(file, readFileSync(file, 'utf8'))) {
        if (guard !== undefined && unseen.delete(`${path}#${guard}`)) continue
        offences.push(`${path}:${line}: ${what}`)
      }
    }
  }
  expect(files).toBeGreaterThan(100)
  expect(offences.join('\n')).toBe('')
  // An entry that is gone leaves the list.
  expect([...unseen]).toEqual([])
})
