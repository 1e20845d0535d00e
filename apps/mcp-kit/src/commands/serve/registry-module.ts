// Importing a registry module whatever its form: an ES module (.mjs, or .js/.ts written as one,
// whatever the nearest package.json says), CommonJS (.cjs, or .js in a CommonJS package, also
// compiled from ESM with exports.default), or TypeScript where Node strips types (22.18+). The
// registry is the default export, or what a default-exported function returns.

import { register } from 'node:module'
import { extname } from 'node:path'
import { pathToFileURL } from 'node:url'
import { CliError } from '../../base/errors.js'

let hooksRegistered = false

/** Where the format is in the name (.mjs, .cjs, .mts, .cts), Node needs no help. */
function formatIsAmbiguous(path: string): boolean {
  return !['.mjs', '.cjs', '.mts', '.cts'].includes(extname(path))
}

/** The module's default export, unwrapped when a compiler turned ESM into CommonJS. */
export async function importDefault(path: string, shown: string): Promise<unknown> {
  if (formatIsAmbiguous(path) && !hooksRegistered) {
    register(new URL('./module-format-hooks.js', import.meta.url))
    hooksRegistered = true
  }
  let exports: { default?: unknown }
  try {
    exports = (await import(pathToFileURL(path).href)) as { default?: unknown }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException)?.code
    if (code === 'ERR_UNKNOWN_FILE_EXTENSION' && /\.[cm]?ts$/.test(path)) {
      throw new CliError(
        'usage',
        `cannot load ${shown}: TypeScript modules need a Node that strips types, 22.18 or later (22.6 to 22.17 with NODE_OPTIONS=--experimental-strip-types); this is Node ${process.versions.node}. Run mcp-kit with a newer Node, or compile the module to JavaScript`,
        { cause: error },
      )
    }
    throw error
  }
  const value = exports.default
  if (
    typeof value === 'object' &&
    value !== null &&
    (value as { __esModule?: unknown }).__esModule === true &&
    'default' in value
  )
    return (value as { default: unknown }).default
  return value
}
