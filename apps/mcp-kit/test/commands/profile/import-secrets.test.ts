// @module-tag integration
// `profile import` and secrets, end to end: a VS Code config with ${env:…} and ${input:…} (asked
// on a real terminal without echo, refused without one) and a Cursor config with a literal token
// in `env`, imported into a project. The tokens are in no profile file, the calls still get them,
// `git status` offers nothing secret to commit, and a user without the secret is told how to set it.

import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { binPath, records, runCli } from '../../helpers/helpers.js'
import { openTerminal } from '../../helpers/terminal.js'

const base = mkdtempSync(join(tmpdir(), 'mcp-kit-import-secrets-'))
const home = join(base, 'home')
const project = join(base, 'project')
const cursorToken = 'tok-cursor-4242-secret'
const inputToken = 'key-from-input-7777'
const env = { HOME: home, XDG_CONFIG_HOME: '', MCP_KIT_HOME: '', NOTES_HOME: '/data/notes', REGION_NAME: '' }
const secretsFile = join(home, '.config', 'mcp-kit', 'secrets.json')
afterAll(() => rmSync(base, { recursive: true, force: true }))

// A server that says what it was launched with.
const registry = join(base, 'whoami.mjs')
writeFileSync(
  registry,
  `export default ({ createToolRegistry }) =>
  createToolRegistry().tool({
    name: 'whoami',
    description: 'The credentials and settings the server was given',
    inputSchema: { type: 'object', properties: {} },
    handler: async () => ({
      content: [{ type: 'text', text: JSON.stringify({ token: process.env.API_TOKEN ?? null, notes: process.env.NOTES_DIR ?? null, region: process.env.REGION ?? null }) }],
    }),
  })
`,
)
const launch = { command: process.execPath, args: [binPath, 'serve', '--stdio', registry] }

mkdirSync(join(home, '.cursor'), { recursive: true })
const cursorConfig = join(home, '.cursor', 'mcp.json')
writeFileSync(
  cursorConfig,
  JSON.stringify({ mcpServers: { tokened: { ...launch, env: { API_TOKEN: cursorToken } } } }),
)

mkdirSync(join(project, '.vscode'), { recursive: true })
execFileSync('git', ['init', '-q', project])
const vscodeConfig = join(project, '.vscode', 'mcp.json')
writeFileSync(
  vscodeConfig,
  `{
  // VS Code asks for inputs when it starts the server; mcp-kit asks when it imports it.
  "inputs": [{ "type": "promptString", "id": "api-key", "description": "Notes API key", "password": true }],
  "servers": {
    "notes": {
      "type": "stdio",
      "command": ${JSON.stringify(launch.command)},
      "args": ${JSON.stringify(launch.args)},
      "env": { "API_TOKEN": "\${input:api-key}", "NOTES_DIR": "\${env:NOTES_HOME}", "REGION": "\${REGION_NAME:-eu}" }
    }
  }
}
`,
)

const cli = (args: string[], input?: string) => runCli(args, { cwd: project, env, input })
const whoami = async (profile: string) => {
  const result = await cli(['cat', `@${profile}/whoami`])
  expect(result.code, result.stderr).toBe(0)
  return records(result.stdout)[0]
}

describe('profile import keeps secrets out of profiles', () => {
  it('without a terminal, an ${input:…} is refused, naming the input', async () => {
    const result = await cli(['profile', 'import', vscodeConfig, '--project'])
    expect(result.code).toBe(6)
    expect(result.stdout).toBe('nothing imported\n')
    expect(result.stderr).toContain(
      `not imported: notes (${vscodeConfig}) needs input 'api-key' (Notes API key), and there is no terminal to ask on`,
    )
  })

  it('a Cursor config with a token in env: the token goes to the 0600 secret store', async () => {
    const result = await cli(['profile', 'import', cursorConfig, '--project'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toBe(`imported @tokened into ${join(project, '.mcp-kit')}\n`)
    expect(result.stderr).toContain(`kept a secret out of the profiles, in ${secretsFile}`)
    const meta = JSON.parse(
      readFileSync(join(project, '.mcp-kit', 'profiles', 'tokened', '_meta.json'), 'utf8'),
    )
    expect(meta.env).toEqual({ API_TOKEN: '${secret:tokened/env/API_TOKEN}' })
    expect(JSON.parse(readFileSync(secretsFile, 'utf8')).secrets).toEqual({
      'tokened/env/API_TOKEN': cursorToken,
    })
    expect(statSync(secretsFile).mode & 0o777).toBe(0o600)
  })

  it('on a terminal (tmux), the password input is asked without echo', async () => {
    const terminal = openTerminal(
      `cd ${project} && ${process.execPath} ${binPath} profile import .vscode/mcp.json --project; echo "exit=$?"; sleep 60`,
      { env: { ...env, NO_COLOR: '1' } },
    )
    try {
      await expect
        .poll(terminal.screen, { timeout: 15_000 })
        .toMatch(/notes asks for input 'api-key' — Notes API key \(not shown\):\s*$/m)
      terminal.type(inputToken)
      terminal.press('Enter')
      await expect.poll(terminal.screen, { timeout: 15_000 }).toMatch(/exit=0/)
      expect(terminal.screen()).toContain(`imported @notes into ${join(project, '.mcp-kit')}`)
      expect(terminal.screen()).not.toContain(inputToken)
    } finally {
      terminal.close()
    }
    const meta = JSON.parse(
      readFileSync(join(project, '.mcp-kit', 'profiles', 'notes', '_meta.json'), 'utf8'),
    )
    expect(meta.env).toEqual({
      API_TOKEN: '${secret:notes/env/API_TOKEN}',
      NOTES_DIR: '${NOTES_HOME}',
      REGION: '${REGION_NAME:-eu}',
    })
  })

  it('the calls get the secrets and the environment', async () => {
    expect(await whoami('tokened')).toEqual({ token: cursorToken, notes: null, region: null })
    expect(await whoami('notes')).toEqual({ token: inputToken, notes: '/data/notes', region: 'eu' })
  })

  it('git status in the project offers nothing secret to add', () => {
    const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], {
      cwd: project,
      encoding: 'utf8',
    })
    const files = status
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => line.slice(3))
      .sort()
    expect(files).toEqual([
      '.mcp-kit/.gitignore',
      '.mcp-kit/profiles/notes/_meta.json',
      '.mcp-kit/profiles/tokened/_meta.json',
      '.vscode/mcp.json',
    ])
    for (const file of files) {
      const text = readFileSync(join(project, file), 'utf8')
      expect(text, file).not.toContain(cursorToken)
      expect(text, file).not.toContain(inputToken)
    }
    // Even with the store inside the project (MCP_KIT_HOME=.mcp-kit), git would not offer it.
    writeFileSync(join(project, '.mcp-kit', 'secrets.json'), '{}')
    const ignored = execFileSync('git', ['check-ignore', '.mcp-kit/secrets.json'], {
      cwd: project,
      encoding: 'utf8',
    })
    expect(ignored.trim()).toBe('.mcp-kit/secrets.json')
    rmSync(join(project, '.mcp-kit', 'secrets.json'))
  })

  it('a user without the secret is told which one and how to set it', async () => {
    const stranger = { ...env, HOME: join(base, 'stranger') }
    const missing = await runCli(['cat', '@tokened/whoami'], { cwd: project, env: stranger })
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain(
      "secret 'tokened/env/API_TOKEN' is not in your secret store (used in " +
        `${join(project, '.mcp-kit', 'profiles', 'tokened', '_meta.json')} at env.API_TOKEN); set it with: mcp-kit profile secret set tokened/env/API_TOKEN`,
    )
    const set = await runCli(['profile', 'secret', 'set', 'tokened/env/API_TOKEN'], {
      cwd: project,
      env: stranger,
      input: 'their-own-token\n',
    })
    expect(set.code, set.stderr).toBe(0)
    const listed = await runCli(['profile', 'secret', 'list'], { cwd: project, env: stranger })
    expect(listed.stdout).toMatch(/^notes\/env\/API_TOKEN\s+MISSING\s+@notes$/m)
    expect(listed.stdout).toMatch(/^tokened\/env\/API_TOKEN\s+stored\s+@tokened$/m)
    expect(listed.stdout).not.toContain('their-own-token')
    const call = await runCli(['cat', '@tokened/whoami'], { cwd: project, env: stranger })
    expect(records(call.stdout)).toEqual([{ token: 'their-own-token', notes: null, region: null }])
  })
})
