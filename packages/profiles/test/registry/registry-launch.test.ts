import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  formatReference,
  parseReference,
  type RegistryServer,
  registryLaunch,
  resolveReference,
} from '../../src/index.js'
import { codeOf } from '../helpers/code-of.js'

const weather: RegistryServer = {
  name: 'io.github.acme/weather',
  description: 'Forecasts',
  version: '1.4.0',
  packages: [
    {
      registryType: 'npm',
      identifier: '@acme/weather-mcp',
      version: '1.4.0',
      transport: { type: 'stdio' },
      runtimeArguments: [{ type: 'positional', value: '--prefer-offline' }],
      packageArguments: [
        { type: 'named', name: '--units', default: 'metric', choices: ['metric', 'imperial'] },
        { type: 'positional', valueHint: 'city', isRequired: true },
      ],
      environmentVariables: [
        { name: 'WEATHER_API_KEY', isRequired: true, isSecret: true, description: 'API key' },
        { name: 'LOG_LEVEL', value: 'info' },
      ],
    },
  ],
  remotes: [
    {
      type: 'streamable-http',
      url: 'https://{region}.weather.example/mcp/{tenant}',
      variables: {
        region: { default: 'eu', choices: ['eu', 'us'] },
        tenant: { isRequired: true },
      },
      headers: [
        {
          name: 'Authorization',
          value: 'Bearer {token}',
          variables: { token: { isSecret: true, isRequired: true } },
        },
      ],
    },
  ],
}

describe('registryLaunch', () => {
  it('turns an npm package into npx with its runtime and package arguments and environment', () => {
    const launch = registryLaunch(weather, { values: { WEATHER_API_KEY: 'k', city: 'Oslo' } })
    expect(launch.server).toEqual({
      transport: 'stdio',
      command: 'npx',
      args: ['-y', '--prefer-offline', '@acme/weather-mcp@1.4.0', '--units', 'metric', 'Oslo'],
      env: { WEATHER_API_KEY: 'k', LOG_LEVEL: 'info' },
    })
    expect(launch.source).toMatchObject({ kind: 'package', registryType: 'npm', version: '1.4.0' })
  })

  it('refuses a launch whose required inputs have no value, naming every one', () => {
    const error = (() => {
      try {
        registryLaunch(weather)
      } catch (caught) {
        return caught as { code: string; details: { missing: string[] }; message: string }
      }
    })()
    expect(error?.code).toBe('missing_input')
    expect(error?.details.missing).toEqual(['WEATHER_API_KEY', 'city'])
    expect(error?.message).toContain('WEATHER_API_KEY (environment variable, secret: API key)')
  })

  it('checks answers against choices and formats', () => {
    expect(
      codeOf(() => registryLaunch(weather, { values: { WEATHER_API_KEY: 'k', city: 'x', units: 'kelvin' } })),
    ).toMatch(/^invalid_input:/)
  })

  it('fills a remote URL template and its headers; values inside the URL are encoded', () => {
    const launch = registryLaunch(weather, { choose: 'remote', values: { tenant: 'a b/c', token: 't0k' } })
    expect(launch.server).toEqual({
      transport: 'http',
      url: 'https://eu.weather.example/mcp/a%20b%2Fc',
      headers: { Authorization: 'Bearer t0k' },
    })
    expect(launch.inputs.map((input) => input.name)).toEqual(['region', 'tenant', 'token'])
  })

  it('writes secrets as the caller says and escapes literal text (what a profile keeps)', () => {
    const launch = registryLaunch(
      { ...weather, remotes: [] },
      {
        values: { WEATHER_API_KEY: 'k', city: '${HOME}' },
        literal: (text) => text.replaceAll('${', () => '$${'),
        answerText: (input, value) =>
          input.secret ? `\${secret:w/env/${input.name}}` : value.replaceAll('${', () => '$${'),
      },
    )
    expect(launch.server).toMatchObject({ env: { WEATHER_API_KEY: '${secret:w/env/WEATHER_API_KEY}' } })
    expect((launch.server as { args: string[] }).args.at(-1)).toBe('$${HOME}')
  })

  it('maps pypi, oci and nuget packages to uvx, docker and dnx', () => {
    const run = (pkg: Record<string, unknown>) =>
      registryLaunch({ name: 'io.github.a/b', version: '1', packages: [{ version: '2.0.1', ...pkg }] }).server
    expect(run({ registryType: 'pypi', identifier: 'weather-mcp' })).toEqual({
      transport: 'stdio',
      command: 'uvx',
      args: ['weather-mcp==2.0.1'],
    })
    expect(
      run({
        registryType: 'oci',
        identifier: 'ghcr.io/acme/weather:2.0.1',
        environmentVariables: [{ name: 'TOKEN', value: 'x' }],
      }),
    ).toEqual({
      transport: 'stdio',
      command: 'docker',
      args: ['run', '-i', '--rm', '-e', 'TOKEN', 'ghcr.io/acme/weather:2.0.1'],
      env: { TOKEN: 'x' },
    })
    expect(run({ registryType: 'nuget', identifier: 'Acme.Weather' })).toEqual({
      transport: 'stdio',
      command: 'dnx',
      args: ['Acme.Weather@2.0.1', '--yes', '--'],
    })
  })

  it('runs an npm package from the registry its entry names', () => {
    const server = registryLaunch({
      name: 'io.github.a/b',
      version: '1',
      packages: [
        { registryType: 'npm', identifier: 'b', version: '1.0.0', registryBaseUrl: 'http://127.0.0.1:4873' },
      ],
    }).server
    expect(server).toMatchObject({ args: ['-y', '--registry=http://127.0.0.1:4873', 'b@1.0.0'] })
  })

  it('refuses mcpb bundles, unknown runtimes and version ranges with the reason', () => {
    const mcpb = {
      name: 'io.github.a/b',
      version: '1',
      packages: [{ registryType: 'mcpb', identifier: 'https://x/b.mcpb' }],
    }
    expect(() => registryLaunch(mcpb)).toThrow(/mcpb bundle/)
    const hint = {
      name: 'io.github.a/b',
      version: '1',
      packages: [{ registryType: 'npm', identifier: 'b', version: '1.0.0', runtimeHint: 'sh' }],
    }
    expect(codeOf(() => registryLaunch(hint))).toMatch(/^invalid_reference:/)
    const range = {
      name: 'io.github.a/b',
      version: '1',
      packages: [{ registryType: 'npm', identifier: 'b', version: '^1.0.0' }],
    }
    expect(() => registryLaunch(range)).toThrow(/exact version/)
  })

  it('never builds a launch from a hostile identifier, flag or value', () => {
    const hostile = fc.oneof(
      fc.string(),
      fc.constantFrom(
        '; rm -rf ~',
        '$(id)',
        '`id`',
        '-e',
        '--inspect',
        'a\nb',
        'a\u0000b',
        '| tee x',
        '../x',
      ),
    )
    fc.assert(
      fc.property(hostile, hostile, hostile, (identifier, flag, value) => {
        const server: RegistryServer = {
          name: 'io.github.a/b',
          version: '1',
          packages: [
            {
              registryType: 'npm',
              identifier,
              version: '1.0.0',
              packageArguments: [{ type: 'named', name: flag, value }],
            },
          ],
        }
        let launched: ReturnType<typeof registryLaunch> | undefined
        try {
          launched = registryLaunch(server)
        } catch (error) {
          expect(['invalid_reference', 'invalid_input']).toContain((error as { code: string }).code)
          return
        }
        // What passed: a package name as npm has them, a flag, no control characters anywhere.
        expect(identifier).toMatch(/^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/i)
        expect(flag).toMatch(/^-{1,2}[A-Za-z0-9]/)
        const words = launched.server.transport === 'stdio' ? launched.server.args : []
        for (const word of words) expect(word).not.toMatch(/[\u0000-\u001f]/)
      }),
    )
  })
})

describe('registryLaunch choices', () => {
  const two: RegistryServer = {
    name: 'io.github.acme/two',
    version: '1.0.0',
    packages: [
      { registryType: 'mcpb', identifier: 'https://x.example/a.mcpb', version: '1.0.0' },
      { registryType: 'npm', identifier: 'two-mcp', version: '1.0.0' },
      { registryType: 'oci', identifier: 'ghcr.io/acme/two:1.0.0' },
    ],
    remotes: [
      { type: 'sse', url: 'https://eu.two.example/sse' },
      { type: 'streamable-http', url: 'https://us.two.example/mcp' },
    ],
  }
  const chosen = (choose?: string) => {
    const launch = registryLaunch(two, choose === undefined ? {} : { choose })
    return `${launch.source.choice} ${launch.server.transport === 'stdio' ? launch.server.command : launch.server.url}`
  }

  it('takes the first it can run by default, and says which by number', () => {
    expect(chosen()).toBe('package:2 npx')
  })

  it('takes a kind, a type, or one by its number', () => {
    expect(chosen('package')).toBe('package:2 npx')
    expect(chosen('oci')).toBe('package:3 docker')
    expect(chosen('package:3')).toBe('package:3 docker')
    expect(chosen('remote')).toBe('remote:1 https://eu.two.example/sse')
    expect(chosen('remote:2')).toBe('remote:2 https://us.two.example/mcp')
    expect(chosen('streamable-http')).toBe('remote:2 https://us.two.example/mcp')
  })

  it('refuses a choice naming nothing runnable, or nothing at all, with the reason', () => {
    expect(codeOf(() => chosen('package:1'))).toBe(
      'invalid_reference: registry entry io.github.acme/two@1.0.0 has nothing mcp-kit can run of the kind "package:1": it offers an mcpb bundle (mcp-kit does not download and unpack bundles)',
    )
    expect(codeOf(() => chosen('remote:3'))).toMatch(/has no package or remote of the kind "remote:3" to run/)
    expect(codeOf(() => chosen('pypi'))).toMatch(/has no package or remote of the kind "pypi"/)
    for (const bad of ['package:0', 'remote:x', 'NPM', 'package:1:2', '', 'a b'])
      expect(codeOf(() => chosen(bad))).toMatch(/^invalid_reference: .* is not a launch choice/)
  })
})

describe('registryLaunch repeated arguments', () => {
  const files: RegistryServer = {
    name: 'io.github.acme/files',
    version: '1.0.0',
    packages: [
      {
        registryType: 'npm',
        identifier: 'files-mcp',
        version: '1.0.0',
        packageArguments: [
          { type: 'named', name: '--allow', isRepeated: true, choices: ['read', 'write', 'list'] },
          { type: 'positional', valueHint: 'directory', isRepeated: true, isRequired: true },
        ],
        environmentVariables: [{ name: 'FILES_MODE' }],
      },
    ],
  }
  const args = (values: Record<string, string | string[]>) =>
    (registryLaunch(files, { values }).server as { args: string[] }).args.slice(2)

  it('takes several values: a named one repeats its flag, a positional one is several words', () => {
    expect(args({ allow: ['read', 'list'], directory: ['/a', '/b c'] })).toEqual([
      '--allow',
      'read',
      '--allow',
      'list',
      '/a',
      '/b c',
    ])
    expect(args({ directory: '/only' })).toEqual(['/only'])
    expect(args({ directory: ['/one'], allow: [] })).toEqual(['/one'])
    const inputs = registryLaunch(files, { values: { directory: ['/a', '/b'] } }).inputs
    expect(inputs.map((input) => [input.name, input.repeated, input.answered])).toEqual([
      ['FILES_MODE', undefined, false],
      ['allow', true, false],
      ['directory', true, true],
    ])
  })

  it('checks every value, and refuses several values for an input that takes one', () => {
    expect(codeOf(() => args({ directory: '/a', allow: ['read', 'delete'] }))).toMatch(
      /^invalid_input: .*the value given for allow is not one of "read", "write", "list"/,
    )
    expect(codeOf(() => args({ directory: ['/a', 'b\nc'] }))).toMatch(/control character/)
    expect(codeOf(() => args({ directory: '/a', FILES_MODE: ['x', 'y'] }))).toBe(
      'invalid_input: registry entry io.github.acme/files@1.0.0: FILES_MODE takes one value, and 2 were given',
    )
    expect(codeOf(() => args({ directory: [] }))).toMatch(/^missing_input: .*needs directory/)
  })

  it('turns a list of values into exactly those words, or refuses it for a control character', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 2, maxLength: 5 }), (values) => {
        let words: string[]
        try {
          words = args({ directory: values })
        } catch (error) {
          return (error as { code?: string }).code === 'invalid_reference'
        }
        return words.length === values.length && words.every((word, index) => word === values[index])
      }),
    )
  })
})

describe('mcp+registry:// references', () => {
  it('parse to a name and an exact version, and print back', () => {
    const reference = parseReference('mcp+registry://io.github.acme/weather@1.4.0?tool=forecast&city=Oslo')
    expect(reference).toMatchObject({
      type: 'registry',
      name: 'io.github.acme/weather',
      version: '1.4.0',
      operation: { kind: 'callTool', name: 'forecast' },
    })
    expect(formatReference(reference)).toBe(
      'mcp+registry://io.github.acme/weather@1.4.0?tool=forecast&city=Oslo',
    )
    expect(parseReference('mcp+registry://io.github.acme%2Fweather')).toMatchObject({
      name: 'io.github.acme/weather',
    })
    expect(parseReference('mcp+registry://io.github.acme/weather@latest')).not.toHaveProperty('version')
  })

  it('refuse names and versions the registry would not have', () => {
    for (const text of [
      'mcp+registry://weather',
      'mcp+registry://io.github.acme/weather/x',
      'mcp+registry://io.github.acme/weather@^1.0.0',
      'mcp+registry://io.github.acme/we ather',
      'mcp+registry://io.github.acme/weather?command=sh',
    ])
      expect(
        codeOf(() => parseReference(text)),
        text,
      ).toMatch(/^invalid_reference:/)
  })

  it('resolve through the registry option only, with the query launch words added', async () => {
    await expect(resolveReference('mcp+registry://io.github.acme/weather')).rejects.toMatchObject({
      code: 'invalid_reference',
    })
    const resolved = await resolveReference('mcp+registry://io.github.acme/weather?arg=--verbose', {
      registry: async (reference) => {
        const launch = registryLaunch(weather, { values: { WEATHER_API_KEY: 'k', city: 'Oslo' } })
        return {
          registry: 'http://r',
          name: reference.name,
          version: '1.4.0',
          server: weather,
          launch,
          values: {},
        }
      },
    })
    expect(resolved.server).toMatchObject({
      command: 'npx',
      args: expect.arrayContaining(['Oslo', '--verbose']),
    })
    expect(resolved.registry?.version).toBe('1.4.0')
  })
})
