// Shared vitest settings. Every package writes a JSON report (test-results.json) that .ci/run
// sums into one "N passed, N failed" line, and prints the usual summary too.
//
// Tests run on source: the workspace packages declare a `@mcp-kit/source` export condition
// pointing at their `src/`, and these settings resolve it, so one package's tests need no build of
// the others. Two tiers (CONTRIBUTING.md "Tests"): a test file that starts processes or needs
// Redis, a browser, the Python environment or a built dist/ says so on a line of its own,
// `// @module-tag integration` (vitest's file tag); the `unit` project runs every other file,
// the `integration` project those. `vitest run` runs both; `vitest run --project unit` the first.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { configDefaults, defineConfig } from 'vitest/config'

// Tests never read or write the user's own cache (remembered protocol eras): one throwaway
// directory per test run.
process.env.MCP_KIT_CACHE_DIR ??= mkdtempSync(join(tmpdir(), 'mcp-kit-test-cache-'))

/** The export condition of the workspace packages' source entries. */
export const sourceCondition = '@mcp-kit/source'

/** The file tag of the integration tier. */
export const integrationTag = 'integration'

const tagLine = new RegExp(`^//\\s*@module-tag\\s+${integrationTag}\\s*$`, 'm')

/** Files under `directory` (relative to `root`) whose names end with `suffix`. */
function filesUnder(root, directory, suffix) {
  let entries
  try {
    entries = readdirSync(join(root, directory), { withFileTypes: true })
  } catch {
    return []
  }
  return entries.flatMap((entry) => {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(root, path, suffix)
    return entry.name.endsWith(suffix) ? [path] : []
  })
}

/**
 * The test files of `include` (patterns of the form `dir/**\/*.suffix`) that carry the integration
 * tag, relative to `root`.
 */
export function integrationFiles(include, root = process.cwd()) {
  return include.flatMap((pattern) => {
    const match = /^([\w./-]+)\/\*\*\/\*([\w.-]+)$/.exec(pattern)
    if (match === null) throw new Error(`@mcp-kit/vitest-config: cannot scan the pattern ${pattern}`)
    const [, directory, suffix] = match
    return filesUnder(root, directory, suffix)
      .filter((file) => tagLine.test(readFileSync(join(root, file), 'utf8')))
      .map((file) => relative(root, join(root, file)).split('\\').join('/'))
  })
}

/**
 * @param {import('vitest/config').UserConfig['test']} [test]
 * @param {{ tier?: 'integration', unit?: import('vitest/config').UserConfig['test'] }} [options]
 *   `tier: 'integration'`: every test file is of that tier, tagged or not (the tooling packages,
 *   whose tests all run the built CLI or real peers). `unit`: settings of the unit project alone
 *   (how many workers, whether files share a worker's modules); the unit files then run before
 *   the integration files, not beside them.
 */
export function createVitestConfig(test = {}, options = {}) {
  // The projects say which files they run; `include` at the top would be added to each (extends).
  const { include = ['src/**/*.test.ts', 'test/**/*.test.ts'], ...shared } = test
  const integration = options.tier === 'integration' ? include : integrationFiles(include)
  return defineConfig({
    // Node-side resolution (vitest runs tests in Vite's server environment); the rest are Vite's
    // defaults for it.
    ssr: { resolve: { conditions: [sourceCondition, 'node', 'development|production'] } },
    resolve: { conditions: [sourceCondition, 'module', 'development|production'] },
    test: {
      reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
      testTimeout: 30_000,
      hookTimeout: 30_000,
      tags: [
        {
          name: integrationTag,
          description: 'starts processes, or needs Redis, a browser, the Python environment or a built dist/',
        },
      ],
      ...shared,
      projects: [
        ...(options.tier === 'integration'
          ? []
          : [
              {
                extends: true,
                test: {
                  ...options.unit,
                  name: 'unit',
                  include,
                  exclude: [...configDefaults.exclude, ...integration],
                },
              },
            ]),
        ...(integration.length === 0
          ? []
          : [
              {
                extends: true,
                test: {
                  name: 'integration',
                  include: integration,
                  // Projects with different worker settings cannot run as one group: with settings
                  // of its own the unit project runs first, then this one.
                  ...(options.unit === undefined ? {} : { sequence: { groupOrder: 1 } }),
                },
              },
            ]),
      ],
    },
  })
}
