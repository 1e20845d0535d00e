// Module loader hooks for registry modules (registered by registry-module.ts, and only for
// `serve <module>`): a file written as an ES module loads as one even where the nearest
// package.json says "type": "commonjs" — which is where a user pasting the README's
// `export default …` example often is. Node itself only detects module syntax when package.json
// names no type. A file that parses as CommonJS stays CommonJS, so `module.exports = …` works as
// before. The same holds for TypeScript on a Node that strips types (22.18+): the source is
// checked with its types stripped. Packages in node_modules are left to Node.

import { readFile } from 'node:fs/promises'
import type { LoadHook } from 'node:module'
import * as nodeModule from 'node:module'
import { Script } from 'node:vm'

// Node 22.13+; elsewhere TypeScript in a CommonJS scope is left to Node.
const { stripTypeScriptTypes } = nodeModule as {
  stripTypeScriptTypes?: (source: string) => string
}

/** True when `source` compiles as the body of a CommonJS module (Node's own wrapper). */
function parsesAsCommonJs(source: string): boolean {
  try {
    // A shebang line is allowed at the start of a file, not inside the wrapper.
    const body = source.replace(/^#!.*/, '')
    new Script(`(function (exports, require, module, __filename, __dirname) {${body}\n})`)
    return true
  } catch (error) {
    return !(error instanceof SyntaxError)
  }
}

export const load: LoadHook = async (url, context, nextLoad) => {
  const result = await nextLoad(url, context)
  const typescript = result.format === 'commonjs-typescript'
  if (
    (result.format !== 'commonjs' && !typescript) ||
    !url.startsWith('file:') ||
    url.includes('/node_modules/')
  )
    return result
  const source = await readFile(new URL(url), 'utf8')
  if (typescript && stripTypeScriptTypes === undefined) return result
  const javascript = typescript ? (stripTypeScriptTypes as (source: string) => string)(source) : source
  if (parsesAsCommonJs(javascript)) return result
  return { format: typescript ? 'module-typescript' : 'module', source, shortCircuit: true }
}
