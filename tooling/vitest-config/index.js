// Shared vitest settings: every package writes a JSON report (test-results.json) that
// .ci/run sums into one "N passed, N failed" line, and prints the usual summary too.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { defineConfig } from 'vitest/config'

// Tests never read or write the user's own cache (remembered protocol eras): one throwaway
// directory per test run.
process.env.MCP_KIT_CACHE_DIR ??= mkdtempSync(join(tmpdir(), 'mcp-kit-test-cache-'))

/**
 * @param {import('vitest/config').UserConfig['test']} [test]
 */
export function createVitestConfig(test = {}) {
  return defineConfig({
    test: {
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
      testTimeout: 30_000,
      hookTimeout: 30_000,
      ...test,
    },
  })
}
