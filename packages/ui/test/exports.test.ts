import { expect, it } from 'vitest'

it('the public API is exactly what we mean to publish', async () => {
  expect(Object.keys(await import('../src/index.js')).sort()).toEqual(['assetsDirectory', 'indexFile'])
})
