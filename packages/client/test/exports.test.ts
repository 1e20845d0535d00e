import { execFileSync } from 'node:child_process'
import { expect, it } from 'vitest'

it('the public API is exactly what we mean to publish', async () => {
  const exported = Object.keys(await import('../src/index.js')).sort()
  expect(exported).toEqual([
    'ClientError',
    'ProcessTransport',
    'Session',
    'buildEnvironment',
    'connect',
    'describeExit',
    'filterTools',
    'formatBytes',
    'groupRunning',
    'inheritedEnvironmentNames',
    'processRunning',
    'redactArguments',
    'traceServerName',
  ])
})

it('importing the package loads neither the MCP SDK nor undici (start-up time)', () => {
  const entry = new URL('../dist/index.js', import.meta.url).href
  // ESM imports do not show in require.cache: a loader hook reports every resolved URL.
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
      await import(${JSON.stringify(entry)})
      await new Promise((resolve) => setTimeout(resolve, 50))
      console.log(JSON.stringify(urls))`,
    ],
    { encoding: 'utf8' },
  )
  const urls = JSON.parse(output) as string[]
  expect(urls.some((url) => url.includes('/packages/client/dist/'))).toBe(true)
  expect(urls.filter((url) => url.includes('@modelcontextprotocol') || url.includes('/undici/'))).toEqual([])
})
