// What a module `mcp-kit generate` writes may contain, checked on its syntax tree (the TypeScript
// compiler API): the one import, exported interfaces and type aliases (types only: nothing that
// runs), the `generated` record as a JSON literal with string keys (never `__proto__`), and
// connect() built from the generator's own template — the only calls are kit.openGenerated,
// kit.callForContent, kit.callForStructured and the session's readResource, getPrompt and close,
// the only identifiers its own. Anything else in a module is a server's text that became code.

import ts from 'typescript'

const allowedCallees = new Set([
  'kit.openGenerated',
  'kit.callForContent',
  'kit.callForStructured',
  'session.readResource',
  'session.getPrompt',
  'session.close',
])
/** Identifiers connect() uses as values (method names are property names, checked apart). */
const allowedValues = new Set(['kit', 'generated', 'options', 'session', 'args', 'call', 'uri'])
const allowedMembers = new Set([...allowedCallees].map((callee) => callee.split('.')[1] as string))

/** Every problem with a module's shape; empty: it is only what the generator writes. */
export function moduleProblems(code: string): string[] {
  const problems: string[] = []
  const file = ts.createSourceFile('module.ts', code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS)
  const where = (node: ts.Node) =>
    `${ts.SyntaxKind[node.kind]} at ${node.getStart()}: ${node.getText().slice(0, 80)}`
  const diagnostics = (file as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics
  for (const diagnostic of diagnostics)
    problems.push(`syntax: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`)
  if (/[\u2028\u2029]/.test(code)) problems.push('a raw line separator (U+2028/U+2029)')
  let imports = 0
  let records = 0
  let connects = 0
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement)) {
      imports++
      if (statement.getText() !== "import * as kit from '@mcp-kit/client'") problems.push(where(statement))
    } else if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) {
      if (!exported(statement)) problems.push(where(statement))
      checkTypes(statement, problems, where)
    } else if (ts.isVariableStatement(statement)) {
      records++
      checkRecord(statement, problems, where)
    } else if (ts.isFunctionDeclaration(statement) && statement.name?.text === 'connect') {
      connects++
      checkConnect(statement, problems, where)
    } else {
      problems.push(`statement ${where(statement)}`)
    }
  }
  if (imports !== 1 || records !== 1 || connects !== 1)
    problems.push(`${imports} imports, ${records} records, ${connects} connect functions`)
  return problems
}

function exported(node: ts.HasModifiers): boolean {
  const modifiers = ts.getModifiers(node) ?? []
  return modifiers.length === 1 && modifiers[0]?.kind === ts.SyntaxKind.ExportKeyword
}

/** Types never run; still, nothing a generator never writes (typeof queries, import types). */
function checkTypes(node: ts.Node, problems: string[], where: (node: ts.Node) => string): void {
  const visit = (child: ts.Node): void => {
    if (ts.isTypeQueryNode(child) || ts.isImportTypeNode(child) || ts.isComputedPropertyName(child))
      problems.push(`type ${where(child)}`)
    ts.forEachChild(child, visit)
  }
  visit(node)
}

function checkRecord(statement: ts.VariableStatement, problems: string[], where: (node: ts.Node) => string) {
  const [declaration, ...more] = statement.declarationList.declarations
  if (
    !exported(statement) ||
    !(statement.declarationList.flags & ts.NodeFlags.Const) ||
    more.length > 0 ||
    declaration === undefined ||
    declaration.name.getText() !== 'generated' ||
    declaration.type?.getText() !== 'kit.GeneratedServer' ||
    declaration.initializer === undefined
  ) {
    problems.push(`record ${where(statement)}`)
    return
  }
  const json = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNumericLiteral(node)) return
    if (
      [ts.SyntaxKind.TrueKeyword, ts.SyntaxKind.FalseKeyword, ts.SyntaxKind.NullKeyword].includes(node.kind)
    )
      return
    if (ts.isArrayLiteralExpression(node)) {
      node.elements.forEach(json)
      return
    }
    if (ts.isObjectLiteralExpression(node)) {
      for (const property of node.properties) {
        if (!ts.isPropertyAssignment(property) || !ts.isStringLiteral(property.name))
          problems.push(`record member ${where(property)}`)
        else if (property.name.text === '__proto__') problems.push(`record key __proto__ ${where(property)}`)
        else json(property.initializer)
      }
      return
    }
    problems.push(`record value ${where(node)}`)
  }
  json(declaration.initializer)
}

function checkConnect(
  statement: ts.FunctionDeclaration,
  problems: string[],
  where: (node: ts.Node) => string,
) {
  const parameters = statement.parameters.map((parameter) => parameter.getText()).join(', ')
  const modifiers = (ts.getModifiers(statement) ?? []).map((modifier) => ts.SyntaxKind[modifier.kind])
  if (modifiers.join(' ') !== 'ExportKeyword AsyncKeyword') problems.push(`connect modifiers ${modifiers}`)
  if (parameters !== 'options: kit.GeneratedConnectOptions = {}')
    problems.push(`connect parameters ${parameters}`)
  const visit = (node: ts.Node): void => {
    // Types inside connect (the argument of callForStructured, a cast): types only.
    if (ts.isTypeNode(node)) {
      checkTypes(node, problems, where)
      return
    }
    if (ts.isCallExpression(node)) {
      if (!allowedCallees.has(node.expression.getText())) problems.push(`call ${where(node)}`)
      node.arguments.forEach(visit)
      node.typeArguments?.forEach(visit)
      return
    }
    if (ts.isPropertyAccessExpression(node)) {
      const text = node.getText()
      if (
        !(allowedValues.has(node.expression.getText()) && allowedMembers.has(node.name.text)) ||
        text.length > 40
      )
        problems.push(`member ${where(node)}`)
      return
    }
    if (ts.isPropertyAssignment(node)) {
      if (!ts.isIdentifier(node.name) || node.name.text === '__proto__')
        problems.push(`property ${where(node)}`)
      visit(node.initializer)
      return
    }
    if (ts.isIdentifier(node)) {
      const parent = node.parent
      const declared = (ts.isParameter(parent) || ts.isVariableDeclaration(parent)) && parent.name === node
      if (!declared && !allowedValues.has(node.text) && node !== statement.name)
        problems.push(`identifier ${where(node)}`)
      return
    }
    const allowed = [
      ts.SyntaxKind.Block,
      ts.SyntaxKind.VariableStatement,
      ts.SyntaxKind.VariableDeclarationList,
      ts.SyntaxKind.VariableDeclaration,
      ts.SyntaxKind.AwaitExpression,
      ts.SyntaxKind.ReturnStatement,
      ts.SyntaxKind.ObjectLiteralExpression,
      ts.SyntaxKind.ShorthandPropertyAssignment,
      ts.SyntaxKind.SpreadAssignment,
      ts.SyntaxKind.ArrowFunction,
      ts.SyntaxKind.Parameter,
      ts.SyntaxKind.EqualsGreaterThanToken,
      ts.SyntaxKind.AsExpression,
      ts.SyntaxKind.StringLiteral,
      ts.SyntaxKind.ExportKeyword,
      ts.SyntaxKind.AsyncKeyword,
    ]
    if (!allowed.includes(node.kind)) problems.push(`node ${where(node)}`)
    ts.forEachChild(node, visit)
  }
  statement.body?.statements.forEach(visit)
}
