import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { clientConfigLocations, ProfileError, parseClientConfig } from '../../src/index.js'
import { profileNameFor } from '../../src/internal.js'

describe('parseClientConfig', () => {
  it('reads mcpServers (Claude Desktop, Cursor, Windsurf), keeping env as given', () => {
    const config = parseClientConfig(
      JSON.stringify({
        mcpServers: {
          memory: {
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-memory'],
            env: { MEMORY_FILE_PATH: '/tmp/m.jsonl' },
          },
          'My Server/v2': { command: 'uvx', args: ['x'] },
          remote: { serverUrl: 'https://example.com/mcp', headers: { Authorization: 'Bearer t' } },
          off: { command: 'x', disabled: true },
          bad: { args: [] },
        },
      }),
      'claude.json',
    )
    expect(config.servers).toEqual([
      {
        name: 'memory',
        sourceName: 'memory',
        meta: {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-memory'],
          env: { MEMORY_FILE_PATH: '/tmp/m.jsonl' },
        },
      },
      { name: 'My-Server-v2', sourceName: 'My Server/v2', meta: { command: 'uvx', args: ['x'] } },
      {
        name: 'remote',
        sourceName: 'remote',
        meta: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer t' } },
      },
    ])
    expect(config.skipped).toEqual([
      { name: 'off', reason: 'disabled in the config' },
      { name: 'bad', reason: "neither a 'command' nor a 'url'" },
    ])
  })

  it('reads VS Code servers with comments and trailing commas, and Claude Code project entries', () => {
    const vscode = parseClientConfig(
      '{\n // c\n "servers": { "a": { "type": "http", "url": "http://x/mcp", }, },\n}',
      'mcp.json',
    )
    expect(vscode.servers).toEqual([{ name: 'a', sourceName: 'a', meta: { url: 'http://x/mcp' } }])
    const claudeCode = parseClientConfig(
      JSON.stringify({
        mcpServers: { top: { command: 'a' } },
        projects: {
          '/work/app': { mcpServers: { local: { command: 'b' } } },
          '/elsewhere': { mcpServers: { other: { command: 'c' } } },
        },
      }),
      '.claude.json',
      { cwd: '/work/app/src' },
    )
    expect(claudeCode.servers.map((server) => server.name)).toEqual(['top', 'local'])
  })

  it('a file that is not a config, or not JSON, names the file', () => {
    expect(() => parseClientConfig('{"name": "pkg"}', 'package.json')).toThrow(
      "package.json is not an MCP client config: it has no 'mcpServers' or 'servers' map",
    )
    expect(() => parseClientConfig('[1]', 'list.json')).toThrow(
      'list.json is not an MCP client config: it is not a JSON object',
    )
    try {
      parseClientConfig('{"mcpServers": {"a": }', 'broken.json')
      expect.unreachable()
    } catch (error) {
      expect(ProfileError.isInstance(error) && error.code).toBe('profile_invalid')
      expect((error as Error).message).toMatch(/^broken\.json:1:\d+: not valid JSON \(ValueExpected\)$/)
    }
  })

  it('profile names from config names', () => {
    expect(profileNameFor('github')).toBe('github')
    expect(profileNameFor('@scope/thing')).toBe('scope-thing')
    expect(profileNameFor('../../etc')).toBe('etc')
    expect(profileNameFor('!!!')).toBe('server')
  })
})

describe('clientConfigLocations', () => {
  it('knows the usual places on Linux, macOS and Windows', () => {
    const linux = clientConfigLocations({ platform: 'linux', home: '/home/a', env: {}, cwd: '/work' })
    expect(linux).toContainEqual({
      client: 'Claude Desktop',
      path: '/home/a/.config/Claude/claude_desktop_config.json',
    })
    expect(linux).toContainEqual({ client: 'VS Code (project)', path: '/work/.vscode/mcp.json' })
    const mac = clientConfigLocations({ platform: 'darwin', home: '/Users/a', env: {}, cwd: '/work' })
    expect(mac).toContainEqual({
      client: 'Claude Desktop',
      path: '/Users/a/Library/Application Support/Claude/claude_desktop_config.json',
    })
    expect(mac).toContainEqual({
      client: 'VS Code',
      path: '/Users/a/Library/Application Support/Code/User/mcp.json',
    })
    const windows = clientConfigLocations({
      platform: 'win32',
      home: 'C:/Users/a',
      env: { APPDATA: 'C:/Users/a/AppData/Roaming' },
      cwd: '/work',
    })
    expect(windows).toContainEqual({
      client: 'Claude Desktop',
      path: join('C:/Users/a/AppData/Roaming', 'Claude', 'claude_desktop_config.json'),
    })
    expect(windows).toContainEqual({ client: 'Cursor', path: join('C:/Users/a', '.cursor', 'mcp.json') })
  })
})
