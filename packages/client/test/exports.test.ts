import { expect, it } from 'vitest'

it('the public API is exactly what we mean to publish', async () => {
  const exported = Object.keys(await import('../src/index.js')).sort()
  expect(exported).toEqual([
    'ClientError',
    'ProcessTransport',
    'Session',
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
    'memoryEraCache',
    'modernProtocolVersions',
    'noEraCache',
    'openGenerated',
    'processRunning',
    'redactArguments',
    'schemaFingerprint',
    'traceServerName',
  ])
})
