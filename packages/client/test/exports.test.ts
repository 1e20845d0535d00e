import { importedModules } from '@mcp-kit/fixtures'
import { expect, it } from 'vitest'

it('the public API is exactly what we mean to publish', async () => {
  const exported = Object.keys(await import('../src/index.js')).sort()
  expect(exported).toEqual([
    'ClientError',
    'ProcessTransport',
    'Session',
    'StoreProvider',
    'authorize',
    'buildEnvironment',
    'callForContent',
    'callForStructured',
    'capabilitiesOf',
    'compareGenerated',
    'connect',
    'createOAuthHook',
    'credentialKey',
    'defaultCredentialsPath',
    'defaultEraCachePath',
    'describeDrift',
    'describeExit',
    'fileCredentialStore',
    'fileEraCache',
    'filterTools',
    'formatBytes',
    'groupRunning',
    'inheritedEnvironmentNames',
    'logout',
    'loopbackAuthorizer',
    'memoryCredentialStore',
    'modernProtocolVersions',
    'noEraCache',
    'openGenerated',
    'processRunning',
    'redactArguments',
    'schemaFingerprint',
    'traceServerName',
  ])
})

it('importing the package loads neither the MCP SDK nor undici (start-up time)', async () => {
  const entry = new URL('../dist/index.js', import.meta.url).href
  const { urls } = await importedModules([
    '--input-type=module',
    '-e',
    `await import(${JSON.stringify(entry)})`,
  ])
  expect(urls.some((url) => url.includes('/packages/client/dist/'))).toBe(true)
  expect(urls.filter((url) => url.includes('@modelcontextprotocol') || url.includes('/undici/'))).toEqual([])
})
