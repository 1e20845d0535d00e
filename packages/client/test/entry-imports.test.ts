// @module-tag integration
// The built root entry stays light: importing it loads neither the MCP SDK nor undici.
import { importedModules } from '@mcp-kit/fixtures'
import { expect, it } from 'vitest'

it('importing the package loads neither the MCP SDK nor undici (start-up time)', async () => {
  const entry = new URL('../dist/index.js', import.meta.url).href
  const { urls } = await importedModules([
    '--input-type=module',
    '-e',
    `await import(${JSON.stringify(entry)})`,
  ])
  expect(urls.some((url) => url.includes('/packages/client/dist/'))).toBe(true)
  expect(urls.filter((url) => url.includes('@modelcontextprotocol') || url.includes('/undici/'))).toEqual([])
})
