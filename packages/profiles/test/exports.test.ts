import { expect, it } from 'vitest'

it('the public API is exactly what we mean to publish', async () => {
  const exported = Object.keys(await import('../src/index.js')).sort()
  expect(exported).toEqual([
    'ProfileError',
    'assertValidName',
    'clientConfigLocations',
    'describeServer',
    'findProfile',
    'formatReference',
    'isRegistryName',
    'isSecretHeader',
    'isSecretName',
    'isValidName',
    'launchers',
    'listProfileTools',
    'listProfiles',
    'loadProfile',
    'loadProfileDocument',
    'loadProfileTool',
    'looksLikeSecret',
    'parseClientConfig',
    'parseCommandReference',
    'parseReference',
    'profileRoots',
    'projectProfileRoot',
    'readSecrets',
    'registryLaunch',
    'resolveReference',
    'resolveReferenceRequest',
    'rewriteProfile',
    'secretKeys',
    'secretsPath',
    'separateSecrets',
    'storedTools',
    'userProfileRoot',
    'writeProfile',
    'writeSecrets',
  ])
})

it("the internal entry (for mcp-kit's own packages, not covered by semver) exports exactly these", async () => {
  const exported = Object.keys(await import('../src/internal.js')).sort()
  expect(exported).toEqual([
    'parseJsonFile',
    'profileNameFor',
    'serverFromMeta',
    'substituteString',
    'substituteValue',
    'toolFileName',
    'translateConfigVariables',
    'workspaceFolderOf',
  ])
})
