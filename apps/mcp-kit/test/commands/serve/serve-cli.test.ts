// @module-tag integration
// `mcp-kit serve` as a user runs it: the built CLI in a real process, real HTTP on 127.0.0.1,
// signals, modules, flags and usage errors. Every process a test starts is gone after it.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { importedModules } from '@mcp-kit/fixtures'
import { afterAll, afterEach, describe, expect, test } from 'vitest'
import { binPath, runCli, startServe, stopStarted } from '../../helpers/helpers.js'

const require = createRequire(import.meta.url)
// The built entry, as a user's module imports it (tests resolve packages to their source).
const serverEntry = pathToFileURL(
  join(dirname(require.resolve('@mcp-kit/server/package.json')), 'dist', 'index.js'),
).href
const workDirectory = mkdtempSync(join(tmpdir(), 'mcp-kit-serve-'))

afterEach(stopStarted)

afterAll(() => rmSync(workDirectory, { recursive: true, force: true }))

/** Writes a registry module into the temp directory and returns its path. */
function writeModule(name: string, source: string): string {
  const path = join(workDirectory, name)
  writeFileSync(path, source)
  return path
}

const accept = 'application/json, text/event-stream'

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept, ...headers },
    body: JSON.stringify(body),
  })
  const text = await response.text()
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: text ? JSON.parse(text) : undefined,
  }
}

const initializeBody = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'cli-test', version: '1' } },
}

async function initialize(url: string, headers: Record<string, string> = {}) {
  const response = await post(url, initializeBody, headers)
  expect(response.status).toBe(200)
  return { ...headers, 'mcp-session-id': response.headers.get('mcp-session-id') as string }
}

// Answers (and so trace entries) come in completion order: compare them sorted.
function byNameAndArguments(
  first: { name: string; args: unknown },
  second: { name: string; args: unknown },
): number {
  return `${first.name} ${JSON.stringify(first.args)}`.localeCompare(
    `${second.name} ${JSON.stringify(second.args)}`,
  )
}

const callTool = (id: number, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
})

describe('serve --port', () => {
  test('port 0: prints the real URL on stderr, binds 127.0.0.1, answers /healthz and the demo tools', async () => {
    const serving = await startServe(['--port', '0'])
    expect(serving.stderr()).toMatch(
      /^mcp-kit: serving the demo registry at http:\/\/127\.0\.0\.1:\d+\/mcp\n$/,
    )
    const port = Number(new URL(serving.url).port)
    expect(port).toBeGreaterThan(0)
    expect(await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()).toEqual({ status: 'ok' })
    const headers = await initialize(serving.url)
    expect((await post(serving.url, callTool(1, 'add', { a: 2, b: 40 }), headers)).json).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: '{"sum":42}' }], structuredContent: { sum: 42 } },
    })
    const invalid = await post(serving.url, callTool(2, 'echo', { message: 7 }), headers)
    expect(invalid.json.result.isError).toBe(true)
    expect(invalid.json.result.content[0].text).toMatch(
      /^Invalid arguments for tool 'echo':\nmessage: must be a string/,
    )
    // Not reachable on another local address: it listens on 127.0.0.1 only.
    serving.child.kill('SIGTERM')
    expect((await serving.exited).code).toBe(0)
  })

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    test(`${signal} with a call in flight: the call finishes, then the server stops`, async () => {
      const module = writeModule(
        `slow-${signal}.js`,
        `export default ({ createToolRegistry }) => createToolRegistry().tool({
          name: 'slow',
          description: 'Takes a moment',
          handler: async () => {
            process.stderr.write('slow started\\n')
            await new Promise((resolve) => setTimeout(resolve, 300))
            return 'slow finished'
          },
        })\n`,
      )
      const serving = await startServe([module, '--port', '0'])
      const headers = await initialize(serving.url)
      const call = post(serving.url, callTool(1, 'slow'), headers)
      while (!serving.stderr().includes('slow started'))
        await new Promise((resolve) => setTimeout(resolve, 10))
      serving.child.kill(signal)
      expect((await call).json).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: { content: [{ type: 'text', text: 'slow finished' }] },
      })
      const { code } = await serving.exited // a clean shutdown is a success
      expect(code).toBe(0)
      expect(serving.stderr()).toMatch(/shutting down: waiting up to 10 s for 1 call in flight/)
      await expect(fetch(serving.url)).rejects.toThrow()
    })
  }

  test('--token, --token-file or MCP_KIT_TOKEN: 401 with WWW-Authenticate without it', async () => {
    // A token file as editors and `echo` write it: one trailing newline, which is not part of the token.
    const tokenFile = join(workDirectory, 'token')
    writeFileSync(tokenFile, 'flag-token\n', { mode: 0o600 })
    for (const [args, env] of [
      [['--port', '0', '--token', 'flag-token'], {}],
      [['--port', '0', '--token-file', tokenFile], {}],
      [['--port', '0'], { MCP_KIT_TOKEN: 'flag-token' }],
    ] as const) {
      const serving = await startServe([...args], env)
      expect(serving.stderr()).toMatch(/\(bearer token required\)/)
      const refused = await post(serving.url, initializeBody)
      expect(refused.status).toBe(401)
      expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="mcp"')
      expect((await post(serving.url, initializeBody, { authorization: 'Bearer flag-token' })).status).toBe(
        200,
      )
      serving.child.kill('SIGTERM')
      await serving.exited
    }
  })

  test('--stateless: no session ids, GET 405', async () => {
    const serving = await startServe(['--port', '0', '--stateless'])
    const response = await post(serving.url, callTool(1, 'echo', { message: 'stateless' }))
    expect(response.json.result.content[0].text).toBe('stateless')
    expect(response.headers.get('mcp-session-id')).toBeNull()
    expect((await fetch(serving.url, { headers: { accept: 'text/event-stream' } })).status).toBe(405)
  })

  test('--allow-origin, --allow-host, --body-limit, --max-sessions, --session-idle reach the server', async () => {
    const serving = await startServe([
      '--port',
      '0',
      '--allow-origin',
      'https://app.example.com',
      '--allow-host',
      'mcp.example.com',
      '--body-limit',
      '2KiB',
      '--max-sessions',
      '1',
      '--session-idle',
      '0.3',
    ])
    expect((await post(serving.url, initializeBody, { origin: 'https://other.example.com' })).status).toBe(
      403,
    )
    const headers = await initialize(serving.url, { origin: 'https://app.example.com' })
    expect((await post(serving.url, initializeBody)).status).toBe(503)
    const big = await post(serving.url, callTool(1, 'echo', { message: 'x'.repeat(3000) }), headers)
    expect(big.status).toBe(413)
    const viaAllowedHost = await new Promise<number>((resolve, reject) => {
      const outgoing = httpRequest(
        serving.url,
        { method: 'GET', headers: { host: 'mcp.example.com', accept: 'text/event-stream' } },
        (response) => {
          response.resume()
          resolve(response.statusCode ?? 0)
        },
      )
      outgoing.on('error', reject)
      outgoing.end()
    })
    expect(viaAllowedHost).toBe(400) // past the Host check: the GET lacks a session id
    for (let attempt = 0; attempt < 200; attempt += 1) {
      if ((await post(serving.url, initializeBody)).status === 200) break
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    expect((await post(serving.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, headers)).status).toBe(
      404,
    )
  })
})

describe('serve modules', () => {
  test('a default-exported registry (importing @mcp-kit/server) and a function given the API', async () => {
    const exported = writeModule(
      'exported.js',
      `import { createToolRegistry } from '${serverEntry}'
      export default createToolRegistry().tool({
        name: 'shout',
        description: 'Upper-cases text',
        inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
        handler: ({ text }) => text.toUpperCase(),
      })\n`,
    )
    const serving = await startServe([exported, '--port', '0'])
    expect(serving.stderr()).toContain(`serving ${exported} at http://127.0.0.1:`)
    const headers = await initialize(serving.url)
    expect(
      (await post(serving.url, callTool(1, 'shout', { text: 'hey' }), headers)).json.result.content[0].text,
    ).toBe('HEY')
    const factory = writeModule(
      'factory.js',
      `export default async ({ createToolRegistry }) => createToolRegistry().tool({ name: 'ping2', description: 'Pong', handler: () => 'pong' })\n`,
    )
    const second = await startServe([factory, '--port', '0'])
    const secondHeaders = await initialize(second.url)
    expect((await post(second.url, callTool(1, 'ping2'), secondHeaders)).json.result.content[0].text).toBe(
      'pong',
    )
  })

  test('modules that cannot be served: exit 2 with a message, no stack', async () => {
    const missing = await runCli(['serve', join(workDirectory, 'nope.js'), '--port', '0'])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/^mcp-kit: cannot load .*nope\.js: Cannot find module/)
    const notRegistry = writeModule('not-registry.js', 'export default { tools: [] }\n')
    const wrong = await runCli(['serve', notRegistry, '--port', '0'])
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toBe(
      `mcp-kit: ${notRegistry}: the default export must be a registry from createToolRegistry() (or a function returning one)\n`,
    )
    const badTool = writeModule(
      'bad-tool.js',
      `export default ({ createToolRegistry }) => createToolRegistry().tool({ name: 'bad name', handler: () => '' })\n`,
    )
    const refused = await runCli(['serve', badTool, '--stdio'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/invalid tool name "bad name": use 1-128 letters, digits/)
    expect(refused.stderr).not.toMatch(/\n\s+at /)
  })
})

describe('usage errors', () => {
  test.each([
    [['--stdio', '--port', '0'], /Arguments stdio and port are mutually exclusive/],
    [['--token', 'x'], /--token only apply to HTTP: add --port N/],
    [['--token-file', 'x'], /--token-file only apply to HTTP: add --port N/],
    [
      ['--port', '0', '--token', 'x', '--token-file', 'y'],
      /Arguments token and token-file are mutually exclusive/,
    ],
    [
      ['--port', '0', '--token-file', 'no-such-file'],
      /^mcp-kit: --token-file no-such-file: cannot read it: no such file\n$/,
    ],
    [['--port', '0', '--token-file', 'empty-token'], /^mcp-kit: --token-file empty-token is empty\n$/],
    [['--port', '0', '--token-file', 'newline-token'], /^mcp-kit: --token-file newline-token is empty\n$/],
    [['--port', '70000'], /--port must be an integer from 0 to 65535/],
    [['--port', '0', '--body-limit', 'lots'], /--body-limit: cannot read "lots"/],
    [['--port', '0', '--max-sessions', '0'], /--max-sessions must be a number > 0/],
    [['--port', '0', '--task-lease', '0.5'], /--task-lease must be at least 1 second/],
    [['--port', '0', '--task-lease', '-3'], /--task-lease must be a number of seconds > 0/],
  ])('serve %j', async (args, message) => {
    writeFileSync(join(workDirectory, 'empty-token'), '')
    writeFileSync(join(workDirectory, 'newline-token'), '\n')
    const result = await runCli(['serve', ...args], { cwd: workDirectory })
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(message)
  })

  test('a port in use', async () => {
    const serving = await startServe(['--port', '0'])
    const port = new URL(serving.url).port
    const result = await runCli(['serve', '--port', port])
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(
      `mcp-kit: cannot listen on 127.0.0.1:${port}: port ${port} is already in use\n`,
    )
  })
})

describe('serve --stdio', () => {
  test('answers piped requests, exits 0 when stdin closes, and stdout carries protocol only', async () => {
    const noisy = writeModule(
      'noisy.js',
      `export default ({ createToolRegistry }) => createToolRegistry().tool({
        name: 'noisy',
        description: 'Prints to stdout the way careless code does',
        handler: () => {
          console.log('a stray console.log')
          process.stdout.write('a stray write\\n')
          return 'quiet answer'
        },
      })\n`,
    )
    const input = [
      initializeBody,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      callTool(1, 'noisy'),
      callTool(2, 'noisy'),
    ]
      .map((message) => JSON.stringify(message))
      .join('\n')
    const result = await runCli(['serve', noisy, '--stdio'], { input: `${input}\n` })
    expect(result.code).toBe(0)
    const lines = result.stdout.split('\n').filter((line) => line !== '')
    const messages = lines.map((line) => JSON.parse(line) as { jsonrpc: string; id: number })
    expect(messages.every((message) => message.jsonrpc === '2.0')).toBe(true)
    expect(messages.map((message) => message.id).sort()).toEqual([0, 1, 2])
    expect(result.stderr).toMatch(/a stray console\.log\n/)
    expect(result.stderr).toMatch(/a stray write\n/)
  })

  test('--trace appends one NDJSON entry per call, in the documented trace shape', async () => {
    const trace = join(workDirectory, 'serve-trace.ndjson')
    const input = [
      initializeBody,
      callTool(1, 'echo', { message: 'traced' }),
      callTool(2, 'echo', {}),
      callTool(3, 'nope'),
    ]
      .map((message) => JSON.stringify(message))
      .join('\n')
    const result = await runCli(['serve', '--stdio', '--trace', trace], { input: `${input}\n` })
    expect(result.code).toBe(0)
    const entries = readFileSync(trace, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .sort(byNameAndArguments)
    expect(
      entries.map(({ ts_ms: _ts, latency_ms: _latency, error_message: _message, ...rest }) => rest),
    ).toEqual([
      { kind: 'tool_call', name: 'echo', ok: true, args: { message: 'traced' }, server: 'mcp-kit demo' },
      {
        kind: 'tool_call',
        name: 'echo',
        ok: false,
        error_code: 'invalid_arguments',
        args: {},
        server: 'mcp-kit demo',
      },
      {
        kind: 'tool_call',
        name: 'nope',
        ok: false,
        error_code: 'tool_not_found',
        args: {},
        server: 'mcp-kit demo',
      },
    ])
  })

  test('without --port or --stdio it serves stdio', async () => {
    const result = await runCli(['serve'], { input: `${JSON.stringify(initializeBody)}\n` })
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({ id: 0, result: { serverInfo: { name: 'mcp-kit' } } })
  })
})

test('serve --help lists the flags; neither it nor serving the demo loads MCP SDK code', async () => {
  const run = (args: string[]) => importedModules([binPath, ...args])
  const sdk = (urls: string[]) => urls.filter((url) => url.includes('@modelcontextprotocol'))
  const help = await run(['serve', '--help'])
  expect(help.code).toBe(0)
  for (const flag of [
    '--stdio',
    '--port',
    '--host',
    '--token',
    '--token-file',
    '--stateless',
    '--allow-origin',
    '--allow-host',
  ]) {
    expect(help.stdout).toContain(flag)
  }
  expect(help.stdout.replace(/\s+/g, ' ')).toContain(
    'A token on the command line is visible to other local users (ps): prefer --token-file or $MCP_KIT_TOKEN',
  )
  expect(sdk(help.urls)).toEqual([])
  // Serving the demo needs none of the SDK either (it loads on first use: URI templates, MRTR
  // state); the hook does see what serving loads, so the check is not vacuous.
  const served = await run(['serve', '--stdio'])
  expect(served.code).toBe(0)
  expect(served.urls.some((url) => url.includes('/server/dist/protocol/'))).toBe(true)
  expect(sdk(served.urls)).toEqual([])
})
