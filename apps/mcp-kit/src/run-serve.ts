// `mcp-kit serve`: loads a registry module (or the demo registry) and serves it.

import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { ToolRegistry } from '@mcp-kit/server'
import { CliError } from './errors.js'
import type { Io } from './io.js'

export interface ServeArguments {
  module?: string
  stdio?: boolean
}

/** Imports `module` and returns its registry: the default export, or what a default-exported function returns. */
export async function loadRegistry(module: string | undefined, io: Io): Promise<ToolRegistry> {
  const { createDemoRegistry, isToolRegistry } = await import('@mcp-kit/server')
  if (module === undefined) return createDemoRegistry()
  const url = pathToFileURL(resolve(io.cwd, module)).href
  let exports: { default?: unknown }
  try {
    exports = (await import(url)) as { default?: unknown }
  } catch (error) {
    throw new CliError('usage', `cannot load ${module}: ${(error as Error).message}`, { cause: error })
  }
  const value =
    typeof exports.default === 'function' ? await (exports.default as () => unknown)() : exports.default
  if (!isToolRegistry(value)) {
    throw new CliError(
      'usage',
      `${module}: the default export must be a registry from createToolRegistry() (or a function returning one)`,
    )
  }
  return value
}

export async function runServe(args: ServeArguments, io: Io): Promise<number> {
  const registry = await loadRegistry(args.module, io)
  const { serveStdio } = await import('@mcp-kit/server')
  await serveStdio(registry, { stdin: io.stdin, stdout: io.stdout })
  return 0
}
