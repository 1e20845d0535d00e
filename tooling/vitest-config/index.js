// Shared vitest settings: every package writes a JSON report (test-results.json) that
// .ci/run sums into one "N passed, N failed" line, and prints the usual summary too.
import { defineConfig } from 'vitest/config'

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
