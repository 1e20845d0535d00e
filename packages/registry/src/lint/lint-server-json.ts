// `server.json` checked the way the registry would check it before publishing: JSON syntax, the
// registry's JSON Schema (when given), then its publishing rules; every problem with the line and
// column of the value it is about, so an editor or a person goes straight there.

import { isRecord } from '@mcp-kit/core'
import type { RegistryServer } from '@mcp-kit/profiles'
import { parseDocument, pointerSegments } from './positions.js'
import { publishingRules } from './publishing-rules.js'
import { checkAgainstSchema } from './schema-check.js'

export interface LintProblem {
  line: number
  column: number
  /** JSON pointer of the value (`/packages/0/version`; '' for the document). */
  pointer: string
  /** `json` (syntax), `schema`, or the publishing rule: name, version, package, argument, environment, transport, launch. */
  rule: string
  severity: 'error' | 'warning'
  message: string
}

export interface LintOptions {
  /** The registry's server.json JSON Schema (loadServerSchema); without it only the rules run. */
  schema?: Record<string, unknown>
}

export interface LintResult {
  problems: LintProblem[]
  /** The document, when it is JSON. */
  server?: RegistryServer
  /** No errors (warnings allowed). */
  ok: boolean
}

/** Lints the text of a server.json. Never throws for what the text says: that is a problem. */
export function lintServerJson(text: string, options: LintOptions = {}): LintResult {
  const document = parseDocument(text.replace(/^\uFEFF/, ''))
  const problems: LintProblem[] = document.syntaxErrors.map((error) => ({
    line: error.line,
    column: error.column,
    pointer: '',
    rule: 'json',
    severity: 'error',
    message: `not valid JSON (${error.message})`,
  }))
  if (problems.length > 0 || !isRecord(document.value)) {
    if (problems.length === 0)
      problems.push({
        line: 1,
        column: 1,
        pointer: '',
        rule: 'json',
        severity: 'error',
        message: 'a server.json is a JSON object',
      })
    return { problems, ok: false }
  }
  const server = document.value as RegistryServer
  const at = (pointer: string) => document.positionOf(pointerSegments(pointer))
  if (options.schema !== undefined) {
    for (const problem of checkAgainstSchema(server, options.schema))
      problems.push({
        ...at(problem.pointer),
        pointer: problem.pointer,
        rule: 'schema',
        severity: 'error',
        message: problem.message,
      })
  }
  for (const problem of publishingRules(server)) problems.push({ ...at(problem.pointer), ...problem })
  problems.sort((a, b) => a.line - b.line || a.column - b.column)
  return { problems, server, ok: !problems.some((problem) => problem.severity === 'error') }
}
