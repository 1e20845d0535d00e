// The npm packages the registry tests launch through `npx -y --prefer-offline`, fetched into
// npx's cache before the tests start. On a machine whose npm cache has never seen them, the first
// launch downloads the package and its dependencies, which under a loaded CI machine takes longer
// than the CLI's 30 s --connect-timeout: a failure of the machine, not of what the test checks.

import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** The registry fixture's npm-packaged servers, as `npx` is told to run them. */
export const registryPackages = [
  '@modelcontextprotocol/server-everything@2026.8.31',
  '@modelcontextprotocol/server-filesystem@2026.8.31',
  '@modelcontextprotocol/server-memory@2026.8.31',
]

/**
 * Installs each package into npx's cache (the directory npx keys by the package it runs), from
 * outside any project, as the CLI launches it. Throws with npm's own message when one cannot be.
 */
export async function warmNpxCache(packages: readonly string[] = registryPackages): Promise<void> {
  const outside = mkdtempSync(join(tmpdir(), 'mcp-kit-npx-warm-'))
  try {
    for (const spec of packages) {
      await run(
        'npx',
        ['-y', '--prefer-offline', '--prefix', outside, '--package', spec, '--', 'node', '-e', ''],
        {
          cwd: outside,
          timeout: 280_000,
        },
      ).catch((error: { stderr?: string; message: string }) => {
        throw new Error(`could not fetch ${spec} into npx's cache: ${error.stderr || error.message}`)
      })
    }
  } finally {
    rmSync(outside, { recursive: true, force: true })
  }
}
