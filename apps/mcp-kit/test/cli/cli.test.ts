// @module-tag integration
// The CLI shell: version, help, usage errors, exit codes, and a light start-up.

import { readFileSync } from 'node:fs'
import { importedModules } from '@mcp-kit/fixtures'
import { describe, expect, it } from 'vitest'
import { binPath, runCli } from '../helpers/helpers.js'

const version = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version

describe('mcp-kit', () => {
  it('--version prints the version', async () => {
    const result = await runCli(['--version'])
    expect(result).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' })
  })

  it('--help lists every command and the exit codes', async () => {
    const result = await runCli(['--help'])
    expect(result.code).toBe(0)
    for (const command of ['inspect', 'cat', 'head', 'tail', 'put', 'shell', 'serve', 'completion'])
      expect(result.stdout).toMatch(new RegExp(`mcp-kit ${command}`))
    expect(result.stdout).toContain('Exit codes: 0 ok, 1 tool or server error, 2 usage')
  })

  it('no command, an unknown command, an unknown flag: exit 2 with a one-line reason', async () => {
    for (const args of [[], ['frobnicate'], ['inspect', '@demo', '--frobnicate']]) {
      const result = await runCli(args)
      expect(result.code, args.join(' ')).toBe(2)
      expect(result.stderr.split('\n')[0]).toMatch(/^mcp-kit: /)
      expect(result.stdout).toBe('')
    }
  })

  it('--help and --version load neither the MCP SDK, ajv nor undici', async () => {
    for (const flags of [
      ['--help'],
      ['--version'],
      ['inspect', '--help'],
      ['put', '--help'],
      ['shell', '--help'],
      ['completion', 'bash'],
    ]) {
      const { code, urls } = await importedModules([binPath, ...flags])
      expect(code, flags.join(' ')).toBe(0)
      expect(
        urls.some((url) => url.endsWith('/dist/bin.js')),
        flags.join(' '),
      ).toBe(true)
      expect(
        urls.filter((url) => /@modelcontextprotocol|\/ajv\/|\/undici\//.test(url)),
        flags.join(' '),
      ).toEqual([])
    }
    // The hook does see ajv when a command validates arguments: the check above is not vacuous.
    const { urls } = await importedModules([binPath, 'cat', '@demo?tool=echo&message=hi'])
    expect(urls.some((url) => url.includes('/ajv/'))).toBe(true)
  })
})
