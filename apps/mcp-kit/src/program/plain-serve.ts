// The way hosts launch a REST API as a stdio server, `mcp-kit serve --openapi SPEC` (with at most
// --stdio, --openapi-base URL and --openapi-output-schemas MODE), recognised without yargs: loading
// yargs and every command module is about a tenth of the time to a large API's first tool list
// (tooling/bench, openapi-large rows). Anything else, down to one more flag, goes through yargs,
// so help, usage errors and every other form behave as they always did.

import type { ServeArguments } from '../commands/serve/serve-options.js'

const outputSchemaModes = ['full', 'compact', 'none']

/** The arguments yargs would give `serve` for this argv, or undefined when it is not that plain. */
export function plainServe(argv: readonly string[]): ServeArguments | undefined {
  const [command, ...rest] = argv
  if (command !== 'serve') return undefined
  const openapi: string[] = []
  let stdio = false
  let base: string | undefined
  let outputSchemas: string | undefined
  for (let index = 0; index < rest.length; index++) {
    const word = rest[index] as string
    const equals = word.startsWith('--') ? word.indexOf('=') : -1
    const flag = equals === -1 ? word : word.slice(0, equals)
    if (flag === '--stdio') {
      if (equals !== -1 || stdio) return undefined
      stdio = true
      continue
    }
    let value: string | undefined
    if (equals !== -1) value = word.slice(equals + 1)
    else {
      value = rest[index + 1]
      index++
    }
    if (value === undefined || value === '' || value.startsWith('-')) return undefined
    if (flag === '--openapi') openapi.push(value)
    else if (flag === '--openapi-base' && base === undefined) base = value
    else if (flag === '--openapi-output-schemas' && outputSchemas === undefined) {
      if (!outputSchemaModes.includes(value)) return undefined
      outputSchemas = value
    } else return undefined
  }
  if (openapi.length === 0) return undefined
  // yargs gives each kebab-case flag a camelCase copy too; serve reads the camelCase ones.
  const args: Record<string, unknown> = { targets: [], openapi }
  if (stdio) args.stdio = true
  if (base !== undefined) Object.assign(args, { 'openapi-base': base, openapiBase: base })
  if (outputSchemas !== undefined) {
    Object.assign(args, { 'openapi-output-schemas': outputSchemas, openapiOutputSchemas: outputSchemas })
  }
  return args as ServeArguments
}
