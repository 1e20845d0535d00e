// The values of `${NAME}` for a run — the file's `variables`, then the environment, then the
// caller's (`--env`), each winning over the one before; captured values win over all at each
// step — and the secrets the collection names (`${secret:KEY}`), read from the store once. Every
// name is checked before anything starts, so a missing one is a bad file, not a failed step.

import type { Collection } from '../collection-types.js'
import { CollectionError, type CollectionProblem, formatProblem } from '../errors.js'
import { requestFields } from '../file/check-steps.js'
import { placeholdersIn } from '../placeholders.js'

export interface VariableSources {
  env: Readonly<Record<string, string | undefined>>
  variables: Readonly<Record<string, string>>
  /** The secret store's file (default: the profiles' secretsPath(env)). */
  secretsPath?: string
}

export async function runVariables(
  collection: Collection,
  sources: VariableSources,
): Promise<Record<string, string | undefined>> {
  const values: Record<string, string | undefined> = {}
  for (const [name, value] of Object.entries(collection.document.variables ?? {}))
    values[name] = String(value)
  for (const [name, value] of Object.entries(sources.env))
    if (!name.startsWith('secret:')) values[name] = value
  for (const [name, value] of Object.entries(sources.variables))
    if (!name.startsWith('secret:')) values[name] = value
  const problems: CollectionProblem[] = []
  const uses = [
    ...Object.entries(collection.document.servers).map(([name, entry]) => ({
      value: entry,
      step: undefined,
      line: collection.serverLines[name] ?? 0,
    })),
    ...collection.steps.map((step) => ({ value: requestFields(step.entry), step, line: step.line })),
  ]
  const secrets = new Set<string>()
  for (const use of uses)
    for (const placeholder of placeholdersIn(use.value)) if (placeholder.secret) secrets.add(placeholder.name)
  if (secrets.size > 0) {
    const { readSecrets } = await import('@mcp-kit/profiles')
    const stored = await readSecrets({ env: sources.env, secretsPath: sources.secretsPath })
    for (const key of secrets) if (Object.hasOwn(stored, key)) values[`secret:${key}`] = stored[key]
  }
  for (const use of uses) {
    for (const placeholder of placeholdersIn(use.value)) {
      const key = placeholder.secret ? `secret:${placeholder.name}` : placeholder.name
      if (placeholder.hasDefault || values[key] !== undefined) continue
      if (!placeholder.secret && use.step?.uses.includes(placeholder.name)) continue
      problems.push({
        file: collection.file || collection.name,
        line: use.line,
        column: 0,
        ...(use.step ? { step: { index: use.step.index, name: use.step.name } } : {}),
        message: placeholder.secret
          ? `secret '${placeholder.name}' is not in your secret store; set it with: mcp-kit profile secret set ${placeholder.name}`
          : `\${${placeholder.name}} is not set: no earlier step captures it and neither the environment, --env nor the file's variables give it (or write \${${placeholder.name}:-default})`,
      })
    }
  }
  if (problems.length > 0) {
    const unique = problems.filter(
      (problem, index) =>
        problems.findIndex((other) => formatProblem(other) === formatProblem(problem)) === index,
    )
    throw new CollectionError(
      'invalid_collection',
      `${formatProblem(unique[0] as CollectionProblem)}${unique.length > 1 ? ` (and ${unique.length - 1} more)` : ''}`,
      { problems: unique },
    )
  }
  return values
}
