// What every measurement needs: which mcp-kit build to run, the anchors' scripts, the servers from
// @mcp-kit/fixtures, and one environment (with a throwaway HOME, which the Inspector writes to)
// shared by every command so no side gets a different setup. mcp-kit's era verdicts (which
// protocol a server speaks) are kept in that HOME too, so a run of the bench starts with none and
// a user's own cache never decides a figure.

import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { fixtureServers, inspectorCli, node22Path, npmServers } from '@mcp-kit/fixtures'

const require = createRequire(import.meta.url)
const packageDirectory = join(dirname(fileURLToPath(import.meta.url)), '..')
const anchorsDirectory = join(packageDirectory, 'anchors')

/**
 * @param {import('./options.js').BenchOptions} options
 */
export function createContext(options) {
  const kitBin = options.kitBin ?? join(dirname(require.resolve('mcp-kit/package.json')), 'dist', 'bin.js')
  const kitManifest = JSON.parse(readFileSync(join(dirname(kitBin), '..', 'package.json'), 'utf8'))
  const home = mkdtempSync(join(tmpdir(), 'mcp-kit-bench-home-'))
  const env = { ...process.env, HOME: home, NO_COLOR: '1', MCP_KIT_CACHE_DIR: join(home, 'cache') }
  // pnpm and turbo put their own variables in the environment; the commands must not see a
  // different environment from what a user's shell gives them.
  for (const name of Object.keys(env))
    if (name.startsWith('npm_') || name.startsWith('TURBO_')) delete env[name]
  return {
    node: process.execPath,
    node22: node22Path,
    kitBin,
    kitVersion: kitManifest.version,
    kitRevision: options.label ?? revisionOf(dirname(kitBin)),
    env,
    anchorsDirectory,
    anchors: {
      sdkInspect: join(anchorsDirectory, 'sdk-inspect.js'),
      sdkCallLoop: join(anchorsDirectory, 'sdk-call-loop.js'),
      sdkHttpServer: join(anchorsDirectory, 'sdk-http-server.js'),
      bareHttpServer: join(anchorsDirectory, 'bare-http-server.js'),
      sdkV2Inspect: join(anchorsDirectory, 'sdk-v2-inspect.js'),
      sdkV2HttpServer: join(anchorsDirectory, 'sdk-v2-http-server.js'),
    },
    servers: {
      basic: fixtureServers.basic,
      everything: npmServers.everything,
      /** The registry module `mcp-kit serve` runs in the 2026-07-28 rows. */
      benchRegistry: join(packageDirectory, 'servers', 'bench-registry.js'),
    },
    home,
    inspectorCli,
    /** The Inspector's launcher (`--web` starts its web UI) and the web UI's built assets. */
    inspectorWeb: inspectorCli,
    inspectorWebAssets: join(dirname(inspectorCli), '..', '..', 'web', 'dist'),
    /** Removes the throwaway HOME. */
    dispose() {
      rmSync(home, { recursive: true, force: true })
    },
  }
}

/** @typedef {ReturnType<typeof createContext>} Context */

/** The git commit (and whether the tree had changes) of the mcp-kit build under test, if any. */
function revisionOf(directory) {
  try {
    const quiet = {
      encoding: /** @type {const} */ ('utf8'),
      stdio: /** @type {const} */ (['ignore', 'pipe', 'ignore']),
    }
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: directory, ...quiet })
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'packages', 'apps'], {
      cwd: join(directory, '..', '..', '..'),
      ...quiet,
    })
    return `${commit.trim()}${dirty.trim() ? ' (with uncommitted changes)' : ''}`
  } catch {
    return 'unknown'
  }
}
