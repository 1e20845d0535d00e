// `mcp-kit registry launch server.json`: the file as mcp-kit would run it from the registry
// (the same launch and inputs as `mcp+registry://name@version`), then inspected — so an author
// sees it work before publishing. The publishing rules are checked first: a file the registry
// would refuse is refused here too (exit 2), with its problems.

import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { CliError } from '../../base/errors.js'
import type { Io } from '../../base/io.js'
import { sanitizeLine } from '../../output/sanitize.js'
import type { InspectArguments } from '../shared/inspect/run-inspect.js'

export interface LaunchArguments extends InspectArguments {
  file: string
}

export async function runLaunch(args: LaunchArguments, io: Io): Promise<number> {
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
  const { lintServerJson } = await import('@mcp-kit/registry')
  const { problems, server } = lintServerJson(text)
  const errors = problems.filter((problem) => problem.severity === 'error')
  if (errors.length > 0 || server === undefined) {
    const listed = errors.map(
      (problem) => `\n  ${args.file}:${problem.line}:${problem.column}: ${sanitizeLine(problem.message)}`,
    )
    throw new CliError('invalid_reference', `${args.file} would not be published as it is:${listed.join('')}`)
  }
  const reference = `mcp+registry://${String(server.name)}@${String(server.version)}`
  const { runInspect } = await import('../shared/inspect/run-inspect.js')
  return runInspect({ ...args, reference, registryFile: path }, io)
}
