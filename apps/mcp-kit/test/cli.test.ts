// The CLI shell: version, help, usage errors, exit codes, and a light start-up.

import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { binPath, runCli } from './helpers.js'

const version = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version

describe('mcp-kit', () => {
  it('--version prints the version', async () => {
    const result = await runCli(['--version'])
    expect(result).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' })
  })

  it('--help lists every command and the exit codes', async () => {
    const result = await runCli(['--help'])
    expect(result.code).toBe(0)
    for (const command of ['inspect', 'cat', 'head', 'tail', 'put', 'serve'])
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

  it('--help and --version load neither the MCP SDK, ajv nor undici', () => {
    for (const flag of ['--help', '--version', 'inspect --help']) {
      const output = execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `
          import { MessageChannel } from 'node:worker_threads'
          import { register } from 'node:module'
          const channel = new MessageChannel()
          const urls = []
          channel.port1.on('message', (url) => urls.push(url))
          channel.port1.unref()
          register('data:text/javascript,' + encodeURIComponent('let port; export function initialize(data) { port = data.port } export async function resolve(specifier, context, next) { const result = await next(specifier, context); port.postMessage(result.url); return result }'), { data: { port: channel.port2 }, transferList: [channel.port2] })
          process.argv = [process.argv[0], ${JSON.stringify(binPath)}, ...${JSON.stringify(flag.split(' '))}]
          const write = process.stdout.write.bind(process.stdout)
          process.stdout.write = () => true
          await import(${JSON.stringify(new URL('../dist/bin.js', import.meta.url).href)})
          await new Promise((resolve) => setTimeout(resolve, 100))
          write(JSON.stringify(urls))`,
        ],
        { encoding: 'utf8' },
      )
      const urls = JSON.parse(output) as string[]
      expect(
        urls.some((url) => url.endsWith('/dist/bin.js')),
        flag,
      ).toBe(true)
      expect(
        urls.filter((url) => /@modelcontextprotocol|\/ajv\/|\/undici\//.test(url)),
        flag,
      ).toEqual([])
    }
  })
})
