// `mcp-kit registry lint server.json`: the file against the registry's server.json JSON Schema
// (the one its `$schema` names, or --schema; fetched once and kept in the cache, so later runs
// work offline) and the publishing rules. One line per problem, `file:line:column: severity:
// message (rule)`, or NDJSON records; exit 1 when there are errors, 0 with warnings only.

import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { CliError } from '../../base/errors.js'
import { type Io, write } from '../../base/io.js'
import { sanitizeLine } from '../../output/sanitize.js'
import { writeRecords } from '../../output/write-records.js'

export interface LintArguments {
  file: string
  schema?: string
  'rules-only'?: boolean
  format?: 'text' | 'json'
  quiet?: boolean
}

async function schemaFor(
  args: LintArguments,
  text: string,
  io: Io,
): Promise<Record<string, unknown> | undefined> {
  if (args['rules-only']) return undefined
  const { currentSchemaUrl, defaultRegistryCacheDir, fileResponseCache, loadServerSchema } = await import(
    '@mcp-kit/registry'
  )
  let declared: unknown
  try {
    declared = (JSON.parse(text) as { $schema?: unknown }).$schema
  } catch {}
  const location =
    args.schema === undefined
      ? typeof declared === 'string' && /^https:\/\//.test(declared)
        ? declared
        : currentSchemaUrl
      : /^https?:\/\//.test(args.schema)
        ? args.schema
        : resolve(io.cwd, args.schema)
  try {
    const loaded = await loadServerSchema(location, {
      cache: fileResponseCache(`${defaultRegistryCacheDir(io.env)}/schemas`),
    })
    return loaded.schema
  } catch (error) {
    const code = (error as { code?: string }).code
    const reason = (error as Error).message
    if (code === 'registry_unreachable')
      throw new CliError(
        'registry_unreachable',
        `cannot fetch the server.json schema: ${reason}; give a copy with --schema FILE, or check the publishing rules alone with --rules-only`,
        { cause: error },
      )
    throw new CliError(code === 'invalid_options' ? 'usage' : (code ?? 'usage'), reason, { cause: error })
  }
}

export async function runLint(args: LintArguments, io: Io): Promise<number> {
  const path = resolve(io.cwd, args.file)
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    throw new CliError(
      'usage',
      `cannot read ${args.file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    )
  }
  const schema = await schemaFor(args, text, io)
  const { lintServerJson } = await import('@mcp-kit/registry')
  const result = lintServerJson(text, schema === undefined ? {} : { schema })
  const format = args.format ?? (io.stdoutIsTTY ? 'text' : 'json')
  if (format === 'json') {
    await writeRecords(io, result.problems.map((problem) => ({ file: args.file, ...problem })) as never)
  } else {
    const lines = result.problems.map(
      (problem) =>
        `${args.file}:${problem.line}:${problem.column}: ${problem.severity}: ${sanitizeLine(problem.message)} (${problem.rule})`,
    )
    if (lines.length > 0) await write(io.stdout, `${lines.join('\n')}\n`)
  }
  const errors = result.problems.filter((problem) => problem.severity === 'error').length
  const warnings = result.problems.length - errors
  const checked =
    schema === undefined ? 'the publishing rules (no schema)' : 'the schema and the publishing rules'
  if (!args.quiet)
    io.stderr.write(
      `mcp-kit: ${sanitizeLine(args.file)}: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'} against ${checked}\n`,
    )
  return errors > 0 ? 1 : 0
}
