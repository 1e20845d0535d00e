import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { ConfigError, readGatewayConfig } from '../../src/index.js'
import { temporaryDir } from '../helpers/gateways.js'

function configFile(content: unknown, name = 'config.json'): string {
  const file = join(temporaryDir(), name)
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content))
  return file
}

test("Claude Desktop's mcpServers, unchanged: each key an upstream; disabled entries skipped", () => {
  const file = configFile({
    mcpServers: {
      memory: {
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-memory'],
        env: { MEMORY_FILE_PATH: '/tmp/m.json' },
      },
      remote: { url: 'https://example.com/mcp', headers: { 'X-Api-Key': '${API_KEY}' } },
      off: { command: 'x', disabled: true },
    },
  })
  const { upstreams, skipped } = readGatewayConfig(file, { env: { API_KEY: 'k1' } })
  expect(upstreams).toEqual([
    {
      name: 'memory',
      server: {
        transport: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-memory'],
        env: { MEMORY_FILE_PATH: '/tmp/m.json' },
      },
    },
    {
      name: 'remote',
      server: { transport: 'http', url: 'https://example.com/mcp', headers: { 'X-Api-Key': 'k1' } },
    },
  ])
  expect(skipped).toEqual([{ name: 'off', reason: 'disabled in the config' }])
})

test("VS Code's servers with comments and ${env:NAME}; the gateway's own keys", () => {
  const file = configFile(
    `{
      // VS Code
      "servers": {
        "gh": { "type": "stdio", "command": "node", "args": ["gh.js"], "env": { "TOKEN": "\${env:GH_TOKEN}" },
                "prefix": "github_", "tools": ["list_*"], "resources": [], "prompts": null },
      },
    }`,
    'mcp.json',
  )
  const { upstreams } = readGatewayConfig(file, { env: { GH_TOKEN: 'secret' } })
  expect(upstreams).toEqual([
    {
      name: 'gh',
      server: { transport: 'stdio', command: 'node', args: ['gh.js'], env: { TOKEN: 'secret' } },
      prefix: 'github_',
      tools: ['list_*'],
      resources: [],
      prompts: null,
    },
  ])
})

test('what a gateway cannot use is refused with the entry and the reason', () => {
  expect(() =>
    readGatewayConfig(configFile({ servers: { gh: { command: 'node', env: { T: '${input:token}' } } } })),
  ).toThrow(/'gh' asks for \$\{input:token\}, which a gateway cannot prompt for/)
  expect(() => readGatewayConfig(configFile({ mcpServers: { a: { command: 'x', tools: 'echo' } } }))).toThrow(
    ConfigError,
  )
  expect(() =>
    readGatewayConfig(configFile({ mcpServers: { a: { command: 'x', env: { T: '${NOPE}' } } } }), {
      env: {},
    }),
  ).toThrow(/NOPE/)
  expect(() => readGatewayConfig('/nonexistent/config.json')).toThrow(/cannot read .*ENOENT/)
  expect(() => readGatewayConfig(configFile('{ "mcpServers": '))).toThrow(/not valid JSON/)
})

test("an entry's oauth: its client for that upstream, ${NAME} from the environment; mistakes named", () => {
  const file = configFile({
    mcpServers: {
      remote: {
        url: 'https://example.com/mcp',
        oauth: {
          clientId: 'gw',
          clientSecret: '${SECRET}',
          scope: 'tools:read',
          issuer: 'https://auth.example.com',
          callbackPort: 8080,
        },
      },
    },
  })
  const [remote] = readGatewayConfig(file, { env: { SECRET: 's3' } }).upstreams
  expect(remote?.oauth).toEqual({
    clientId: 'gw',
    clientSecret: 's3',
    scope: 'tools:read',
    issuer: 'https://auth.example.com',
  })
  const refused: Array<[unknown, RegExp]> = [
    [{ url: 'https://example.com/mcp', oauth: 'gw' }, /'remote'\.oauth must be an object/],
    [
      { url: 'https://example.com/mcp', oauth: { grant: 'password' } },
      /grant must be authorization_code or client_credentials/,
    ],
    [
      { url: 'https://example.com/mcp', oauth: { grant: 'client_credentials', clientId: 'gw' } },
      /needs a clientId and a clientSecret/,
    ],
    [{ command: 'node', oauth: { clientId: 'gw' } }, /'remote'\.oauth is for url entries/],
    [
      {
        url: 'https://example.com/mcp',
        oauth: { clientId: 'gw', clientSecret: 's', issuer: 'auth.example.com' },
      },
      /'remote'\.oauth\.issuer must be the authorization server's issuer URL/,
    ],
  ]
  for (const [entry, message] of refused) {
    const bad = configFile({ mcpServers: { remote: entry } })
    expect(() => readGatewayConfig(bad, { env: {} })).toThrow(message)
    expect(() => readGatewayConfig(bad, { env: {} })).toThrow(ConfigError)
  }
})

test('an entry with "openapi" is a REST API, not a skipped server: its settings checked, ${NAME} filled in', () => {
  const file = configFile({
    mcpServers: {
      pets: {
        openapi: './pets.yaml',
        baseUrl: 'https://pets.example.com/v1',
        headers: { 'X-Api-Key': '${PETS_KEY}' },
        credentials: { oauth: { clientId: 'me', clientSecret: '${env:PETS_SECRET}' } },
        include: ['tag:pets', 'path:/pets'],
        exclude: ['deletePet'],
        outputSchemas: 'compact',
      },
      remote: { openapi: 'https://api.example.com/openapi.json', prefix: '' },
      neither: { note: 'nothing' },
    },
  })
  const { upstreams, skipped, apis } = readGatewayConfig(file, { env: { PETS_KEY: 'k1', PETS_SECRET: 's1' } })
  expect(upstreams).toEqual([])
  expect(skipped).toEqual([{ name: 'neither', reason: "neither a 'command' nor a 'url'" }])
  expect(apis).toEqual([
    {
      name: 'pets',
      spec: join(file, '..', 'pets.yaml'),
      baseUrl: 'https://pets.example.com/v1',
      headers: { 'X-Api-Key': 'k1' },
      credentials: { oauth: { clientId: 'me', clientSecret: 's1' } },
      include: ['tag:pets', 'path:/pets'],
      exclude: ['deletePet'],
      outputSchemas: 'compact',
    },
    { name: 'remote', spec: 'https://api.example.com/openapi.json', prefix: '' },
  ])
  const wrong = configFile({ mcpServers: { pets: { openapi: './pets.yaml', include: 'getPet' } } })
  expect(() => readGatewayConfig(wrong)).toThrow(/'pets'\.include must be a list of strings/)
  const mode = configFile({ mcpServers: { pets: { openapi: './pets.yaml', outputSchemas: 'short' } } })
  expect(() => readGatewayConfig(mode)).toThrow(/'pets'\.outputSchemas must be "full", "compact" or "none"/)
})

test("an openapi entry's limits, modes, forced headers and upload directory", () => {
  const file = configFile({
    mcpServers: {
      pets: {
        openapi: './pets.yaml',
        forcedHeaders: { 'X-Tenant': 'acme' },
        timeout: 2.5,
        maxResponse: '4MiB',
        strictResponses: true,
        allowRemoteRefs: false,
        files: './uploads',
      },
    },
  })
  expect(readGatewayConfig(file).apis).toEqual([
    {
      name: 'pets',
      spec: join(file, '..', 'pets.yaml'),
      forcedHeaders: { 'X-Tenant': 'acme' },
      timeout: 2.5,
      maxResponse: '4MiB',
      strictResponses: true,
      allowRemoteRefs: false,
      files: join(file, '..', 'uploads'),
    },
  ])
  for (const [field, value, said] of [
    ['timeout', 0, 'timeout must be a number of seconds > 0'],
    ['maxResponse', true, 'maxResponse must be a number of bytes or a size'],
    ['strictResponses', 'yes', 'strictResponses must be true or false'],
    ['files', '', 'files must be a directory'],
    ['forcedHeaders', { 'X-A': 1 }, 'forcedHeaders must be an object of strings'],
  ] as const) {
    const wrong = configFile({ mcpServers: { pets: { openapi: './pets.yaml', [field]: value } } })
    expect(() => readGatewayConfig(wrong)).toThrow(said)
  }
})

test('an entry whose url is an mcp+registry:// reference comes back for the caller to resolve, in its place', () => {
  const file = configFile({
    mcpServers: {
      first: { command: 'node', args: ['a.js'] },
      everything: {
        url: 'mcp+registry://io.github.modelcontextprotocol/everything@2026.8.31',
        prefix: 'ev',
        tools: ['echo', 'get-*'],
        inputs: { ACME_API_KEY: '${ACME_KEY}', paths: ['/a', '${HOME_DIR}'] },
      },
      last: { url: 'https://example.com/mcp' },
      remote: { url: 'mcp+registry://io.github.acme/notes-remote', oauth: { clientId: 'c' } },
    },
  })
  const { upstreams, references } = readGatewayConfig(file, { env: { ACME_KEY: 'k1', HOME_DIR: '/h' } })
  expect(upstreams.map((upstream) => upstream.name)).toEqual(['first', 'last'])
  expect(references).toEqual([
    {
      name: 'everything',
      reference: 'mcp+registry://io.github.modelcontextprotocol/everything@2026.8.31',
      inputs: { ACME_API_KEY: 'k1', paths: ['/a', '/h'] },
      options: { prefix: 'ev', tools: ['echo', 'get-*'] },
      index: 1,
    },
    {
      name: 'remote',
      reference: 'mcp+registry://io.github.acme/notes-remote',
      inputs: {},
      options: { oauth: { clientId: 'c' } },
      index: 3,
    },
  ])
  // Inserted at their indexes, in turn, the upstreams are in the file's order.
  const order: string[] = upstreams.map((upstream) => upstream.name)
  for (const reference of references) order.splice(reference.index, 0, reference.name)
  expect(order).toEqual(['first', 'everything', 'last', 'remote'])
})

test('a registry entry is refused with launch keys of its own, bad inputs, or a reference that is no server', () => {
  const refused = (entry: Record<string, unknown>) => () =>
    readGatewayConfig(configFile({ mcpServers: { x: { url: 'mcp+registry://io.github.acme/x', ...entry } } }))
  expect(refused({ env: { A: '1' } })).toThrow(
    /'x'\.env: a registry entry says how to launch its server; give answers to its inputs in "inputs"/,
  )
  expect(refused({ inputs: { A: 1 } })).toThrow(/'x'\.inputs\.A must be a string or a list of strings/)
  expect(refused({ inputs: ['A=1'] })).toThrow(/'x'\.inputs must be an object/)
  expect(refused({ url: 'mcp+registry://io.github.acme/x?tool=echo' })).toThrow(
    /names a tool, resource or prompt; a gateway entry names a server/,
  )
  expect(refused({ url: 'mcp+registry://not a name' })).toThrow(ConfigError)
  expect(refused({ url: 'mcp+registry://acme/x@^1.0' })).toThrow(/is not an exact version/)
})
