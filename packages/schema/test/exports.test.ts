// Growing the public API should be a conscious act: this list changes with it.
import { expect, it } from 'vitest'

it('exports exactly the intended public API', async () => {
  const entry = await import('../src/index.js')
  expect(Object.keys(entry).sort()).toEqual([
    'SchemaError',
    'canonicalToolSignatures',
    'coerceArguments',
    'diffContracts',
    'diffTools',
    'formatProblems',
    'hasBreakingChanges',
    'hashContract',
    'hashTools',
    'summarizeChanges',
    'toolContract',
    'toolSignature',
    'validateArguments',
  ])
})

it("the internal entry (for mcp-kit's own packages, not covered by semver) exports exactly these", async () => {
  const entry = await import('../src/internal.js')
  expect(Object.keys(entry).sort()).toEqual(['validatorCacheStats'])
})
