// @module-tag integration
// The built entries stay light: importing the root entry, or the internal one, loads neither the
// MCP SDK nor undici.
import { importedModules } from '@mcp-kit/fixtures'
import { expect, it } from 'vitest'

it.each(['index', 'internal'])(
  'importing its %s entry loads neither the MCP SDK nor undici (start-up time)',
  async (name) => {
    const entry = new URL(`../dist/${name}.js`, import.meta.url).href
    const { urls } = await importedModules([
      '--input-type=module',
      '-e',
      `await import(${JSON.stringify(entry)})`,
    ])
    expect(urls.some((url) => url.includes('/packages/client/dist/'))).toBe(true)
    expect(urls.filter((url) => url.includes('@modelcontextprotocol') || url.includes('/undici/'))).toEqual(
      [],
    )
  },
)
