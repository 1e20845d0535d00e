// @module-tag integration
// Real clients against `mcp-kit serve` over stdio and Streamable HTTP: the official Inspector
// CLI, the MCP SDK's own Client, and @mcp-kit/client. Each test stops what it started.

import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { connect, type Session, type TraceEntry } from '@mcp-kit/client'
import { processRunning } from '@mcp-kit/client/internal'
import { inspectorCli, node22Path } from '@mcp-kit/fixtures'
import { afterEach, describe, expect, test } from 'vitest'
import { binPath } from '../../helpers/helpers.js'

const servers = new Set<ChildProcess>()
const sessions = new Set<{ close(): Promise<void> }>()

afterEach(async () => {
  for (const session of sessions) await session.close()
  sessions.clear()
  for (const child of servers) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      await new Promise((resolve) => child.once('exit', resolve))
    }
    expect(processRunning(child.pid as number)).toBe(false)
  }
  servers.clear()
})

/** `mcp-kit serve --port 0`; resolves with its URL. */
function serveHttp(): Promise<string> {
  const child = spawn(process.execPath, [binPath, 'serve', '--port', '0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  servers.add(child)
  let stderr = ''
  return new Promise((resolve, reject) => {
    child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      stderr += text
      const match = /(http:\/\/\S+\/mcp)/.exec(stderr)
      if (match) resolve(match[1] as string)
    })
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)))
  })
}

const stdioCommand = { command: process.execPath, args: [binPath, 'serve', '--stdio'] }

// The SDK is a dependency of @mcp-kit/fixtures, not of the app: load its ESM build from there.
// Only the few members used here are typed.
interface SdkClient {
  connect(transport: unknown): Promise<void>
  listTools(): Promise<{ tools: Array<{ name: string }> }>
  callTool(request: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>
  close(): Promise<void>
}
interface Sdk {
  Client: new (info: { name: string; version: string }) => SdkClient
  StdioClientTransport: new (options: {
    command: string
    args: string[]
    stderr?: 'pipe' | 'ignore'
  }) => {
    pid: number | null
  }
  StreamableHTTPClientTransport: new (url: URL) => unknown
}

async function loadSdk(): Promise<Sdk> {
  const fixturesRequire = createRequire(createRequire(import.meta.url).resolve('@mcp-kit/fixtures'))
  const esm = (path: string) =>
    import(
      pathToFileURL(
        fixturesRequire.resolve(`@modelcontextprotocol/sdk/${path}`).replace('/dist/cjs/', '/dist/esm/'),
      ).href
    )
  const [client, stdio, http] = await Promise.all([
    esm('client/index.js'),
    esm('client/stdio.js'),
    esm('client/streamableHttp.js'),
  ])
  return {
    Client: client.Client,
    StdioClientTransport: stdio.StdioClientTransport,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
  }
}

describe('the MCP SDK Client', () => {
  test('over stdio: lists and calls the demo tools', async () => {
    const sdk = await loadSdk()
    const client = new sdk.Client({ name: 'sdk-over-stdio', version: '1.0.0' })
    const transport = new sdk.StdioClientTransport({ ...stdioCommand, stderr: 'ignore' })
    await client.connect(transport)
    sessions.add(client)
    const pid = transport.pid as number
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo', 'add'])
    expect(await client.callTool({ name: 'echo', arguments: { message: 'from the SDK' } })).toEqual({
      content: [{ type: 'text', text: 'from the SDK' }],
    })
    expect(await client.callTool({ name: 'add', arguments: { a: 1.5, b: 2 } })).toEqual({
      content: [{ type: 'text', text: '{"sum":3.5}' }],
      structuredContent: { sum: 3.5 },
    })
    await client.close()
    sessions.delete(client)
    for (let attempt = 0; attempt < 200 && processRunning(pid); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    expect(processRunning(pid)).toBe(false)
  })

  test('over Streamable HTTP: lists and calls the demo tools', async () => {
    const sdk = await loadSdk()
    const url = await serveHttp()
    const client = new sdk.Client({ name: 'sdk-over-http', version: '1.0.0' })
    await client.connect(new sdk.StreamableHTTPClientTransport(new URL(url)))
    sessions.add(client)
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo', 'add'])
    expect(await client.callTool({ name: 'echo', arguments: { message: 'over HTTP' } })).toEqual({
      content: [{ type: 'text', text: 'over HTTP' }],
    })
    expect(await client.callTool({ name: 'add', arguments: { a: 'one', b: 2 } })).toMatchObject({
      isError: true,
    })
  })
})

describe('@mcp-kit/client', () => {
  async function exercise(session: Session, traces: TraceEntry[]) {
    expect((await session.listTools()).map((tool) => tool.name)).toEqual(['echo', 'add'])
    expect(await session.callTool('echo', { message: 'kit to kit' })).toMatchObject({
      content: [{ type: 'text', text: 'kit to kit' }],
    })
    expect(await session.callTool('add', { a: 2, b: 3 })).toMatchObject({ structuredContent: { sum: 5 } })
    const invalid = await session.callTool('add', { a: 2 })
    expect(invalid.isError).toBe(true)
    expect((invalid.content[0] as { text: string }).text).toMatch(/missing required parameter 'b'/)
    expect((await session.readResource('demo://readme')).contents[0]).toMatchObject({
      mimeType: 'text/markdown',
    })
    expect((await session.getPrompt('greet', { name: 'Ada' })).messages[0]?.content).toEqual({
      type: 'text',
      text: 'Write a short, friendly greeting for Ada.',
    })
    expect(traces.map((entry) => [entry.kind, entry.name, entry.ok])).toEqual([
      ['tool_call', 'echo', true],
      ['tool_call', 'add', true],
      ['tool_call', 'add', false],
      ['resource_read', 'demo://readme', true],
      ['prompt_get', 'greet', true],
    ])
  }

  test('over stdio', async () => {
    const traces: TraceEntry[] = []
    const session = await connect(
      { transport: 'stdio', ...stdioCommand },
      { onTrace: (entry) => traces.push(entry) },
    )
    sessions.add(session)
    expect(session.transportKind).toBe('stdio')
    expect([session.era, session.protocolVersion]).toEqual(['modern', '2026-07-28'])
    await exercise(session, traces)
  })

  test('over Streamable HTTP', async () => {
    const url = await serveHttp()
    const traces: TraceEntry[] = []
    const session = await connect({ transport: 'http', url }, { onTrace: (entry) => traces.push(entry) })
    sessions.add(session)
    expect(session.transportKind).toBe('streamable-http')
    expect([session.era, session.protocolVersion]).toEqual(['modern', '2026-07-28'])
    await exercise(session, traces)
  })
})

describe('the official Inspector CLI', () => {
  function inspector(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const home = mkdtempSync(join(tmpdir(), 'mcp-kit-inspector-'))
    return new Promise((resolve, reject) => {
      const child = spawn(node22Path, [inspectorCli, '--cli', ...args, '-q', '--format', 'json'], {
        env: { ...process.env, HOME: home },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let stdout = ''
      let stderr = ''
      child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text))
      child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text))
      child.once('error', reject)
      child.once('close', (code) => {
        rmSync(home, { recursive: true, force: true })
        resolve({ code, stdout, stderr })
      })
    })
  }

  const listTools = ['--method', 'tools/list']
  const callEcho = ['--method', 'tools/call', '--tool-name', 'echo', '--tool-arg', 'message=inspected']

  test('over stdio: tools/list and tools/call', async () => {
    const target = [stdioCommand.command, ...stdioCommand.args]
    const listed = await inspector([...target, ...listTools])
    expect(listed.code).toBe(0)
    expect(JSON.parse(listed.stdout).result.tools.map((tool: { name: string }) => tool.name)).toEqual([
      'echo',
      'add',
    ])
    const called = await inspector([...target, ...callEcho])
    expect(called.code).toBe(0)
    expect(JSON.parse(called.stdout)).toEqual({ result: { content: [{ type: 'text', text: 'inspected' }] } })
  })

  test('over Streamable HTTP: tools/list and tools/call', async () => {
    const url = await serveHttp()
    const listed = await inspector([url, ...listTools])
    expect(listed.code).toBe(0)
    expect(JSON.parse(listed.stdout).result.tools.map((tool: { name: string }) => tool.name)).toEqual([
      'echo',
      'add',
    ])
    const called = await inspector([
      url,
      '--method',
      'tools/call',
      '--tool-name',
      'add',
      '--tool-arg',
      'a=2',
      'b=40',
    ])
    expect(called.code).toBe(0)
    expect(JSON.parse(called.stdout)).toEqual({
      result: { content: [{ type: 'text', text: '{"sum":42}' }], structuredContent: { sum: 42 } },
    })
  })
})
