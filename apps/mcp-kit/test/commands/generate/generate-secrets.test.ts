// What a generated module keeps of its launch settings: a value @mcp-kit/profiles keeps out of a
// profile (by its name or its shape) is a `${NAME}` the module reads from the environment, in its
// server, the source it names and its regenerate command; a literal `${` stays literal.
// (generate.test.ts runs such a module against a real server.)

import type { StdioServerSpec } from '@mcp-kit/client'
import { describe, expect, it } from 'vitest'
import type { Io } from '../../../src/base/io.js'
import { moduleServer } from '../../../src/commands/generate/module-server.js'
import type { GenerateArguments } from '../../../src/commands/generate/run-generate.js'
import { resolveTarget } from '../../../src/session/reference.js'

const io = { cwd: '/work', env: {} } as unknown as Io

async function written(args: Partial<GenerateArguments>) {
  const given = { out: 'client.ts', ...args } as GenerateArguments
  const { resolved } = await resolveTarget(given, io)
  return moduleServer(resolved, given, 'client.ts', io)
}

describe('the launch settings of a generated module', () => {
  it('a secret-named env.NAME of the reference is ${NAME}; others stay as given', async () => {
    const module = await written({
      reference: 'mcp+npx://@acme/server?env.API_KEY=s3cret-value&env.MODE=fast',
    })
    expect(module.server).toEqual({
      transport: 'stdio',
      command: 'npx',
      args: ['-y', '@acme/server'],
      env: { API_KEY: '${API_KEY}', MODE: 'fast' },
    })
    expect(module.source).toBe('mcp+npx://@acme/server?env.API_KEY=${API_KEY}&env.MODE=fast')
    expect(module.regenerate).toBe(
      'mcp-kit generate "mcp+npx://@acme/server?env.API_KEY=${API_KEY}&env.MODE=fast" --out client.ts',
    )
    expect(module.variables).toEqual(['API_KEY'])
    expect(JSON.stringify(module)).not.toContain('s3cret-value')
  })

  it('flags and words of a command line: --token=…, --token …, token-shaped values, --env, --header, --pass-env', async () => {
    const token = 'ghp_abcdefghijklmnopqrstuvwxyz0123'
    const module = await written({
      reference: '?env.DB_PASSWORD=hunter2',
      serverCommand: ['node', 'server.js', '--api-key=k-123', '--token', 'abc', token, '--level=2'],
      env: ['GITHUB_TOKEN=gh-secret', 'REGION=eu'],
      'pass-env': ['HOME_DIR', 'AWS_*'],
      policy: 'breaking',
    })
    const server = module.server as StdioServerSpec
    expect(server.args).toEqual([
      'server.js',
      '--api-key=${API_KEY}',
      '--token',
      '${TOKEN}',
      '${SECRET_ARG_4}',
      '--level=2',
    ])
    expect(server.env).toEqual({
      DB_PASSWORD: '${DB_PASSWORD}',
      GITHUB_TOKEN: '${GITHUB_TOKEN}',
      REGION: 'eu',
      HOME_DIR: '${HOME_DIR}',
    })
    expect(module.variables).toEqual([
      'API_KEY',
      'DB_PASSWORD',
      'GITHUB_TOKEN',
      'HOME_DIR',
      'SECRET_ARG_4',
      'TOKEN',
    ])
    expect(module.regenerate).toBe(
      'mcp-kit generate "?env.DB_PASSWORD=${DB_PASSWORD}" --out client.ts --policy breaking ' +
        '--env "GITHUB_TOKEN=${GITHUB_TOKEN}" --env REGION=eu --pass-env HOME_DIR ' +
        '-- node server.js "--api-key=${API_KEY}" --token "${TOKEN}" "${SECRET_ARG_4}" --level=2',
    )
    expect(module.source).toBe(
      "?env.DB_PASSWORD=${DB_PASSWORD} -- node server.js '--api-key=${API_KEY}' --token '${TOKEN}' '${SECRET_ARG_4}' --level=2",
    )
    for (const secret of ['hunter2', 'k-123', 'abc', token, 'gh-secret'])
      expect(JSON.stringify(module)).not.toContain(secret)
  })

  it('an HTTP server: Authorization and X-Api-Key headers are variables, others stay', async () => {
    const module = await written({
      reference: 'mcp+https://api.example.com/mcp',
      header: ['Authorization: Bearer tok-123', 'X-Api-Key: k-456', 'Accept-Language: en'],
    })
    expect(module.server).toEqual({
      transport: 'http',
      url: 'https://api.example.com/mcp',
      headers: { Authorization: '${AUTHORIZATION}', 'X-Api-Key': '${X_API_KEY}', 'Accept-Language': 'en' },
    })
    expect(module.regenerate).toBe(
      'mcp-kit generate mcp+https://api.example.com/mcp --out client.ts ' +
        '--header "Authorization: ${AUTHORIZATION}" --header "X-Api-Key: ${X_API_KEY}" --header \'Accept-Language: en\'',
    )
  })

  it('a literal ${ in the launch settings stays literal ($${), and the shell words quote it', async () => {
    const module = await written({ serverCommand: ['echo', '${HOME}', "it's"] })
    expect((module.server as StdioServerSpec).args).toEqual(['$${HOME}', "it's"])
    expect(module.regenerate).toBe(`mcp-kit generate --out client.ts -- echo '\${HOME}' 'it'\\''s'`)
  })
})
