import { expect, it } from 'vitest'

it('the public API is exactly what we mean to publish', async () => {
  const exported = Object.keys(await import('../src/index.js')).sort()
  expect(exported).toEqual([
    'ClientError',
    'Session',
    'callForContent',
    'callForStructured',
    'capabilitiesOf',
    'compareGenerated',
    'connect',
    'createOAuthHook',
    'credentialKey',
    'defaultCredentialsPath',
    'describeDrift',
    'describeExit',
    'fileCredentialStore',
    'fileEraCache',
    'inheritedEnvironmentNames',
    'logout',
    'loopbackAuthorizer',
    'memoryCredentialStore',
    'memoryEraCache',
    'modernProtocolVersions',
    'noEraCache',
    'openGenerated',
    'redactArguments',
    'schemaFingerprint',
  ])
})

it("the internal entry (for mcp-kit's own packages, not covered by semver) exports exactly these", async () => {
  const exported = Object.keys(await import('../src/internal.js')).sort()
  expect(exported).toEqual([
    'buildEnvironment',
    'defaultEraCachePath',
    'driftVerdict',
    'expandServer',
    'groupRunning',
    'processRunning',
    'schemaPolicies',
    'traceServerName',
  ])
})
