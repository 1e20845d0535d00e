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
    'isValidName',
    'launchers',
    'listProfileTools',
    'listProfiles',
    'loadProfile',
    'loadProfileDocument',
    'loadProfileTool',
    'nodeFileSystem',
    'parseClientConfig',
    'parseCommandReference',
    'parseJsonFile',
    'parseReference',
    'profileNameFor',
    'profileRoots',
    'projectProfileRoot',
    'resolveReference',
    'rewriteProfile',
    'serverFromMeta',
    'storedTools',
    'substituteString',
    'substituteValue',
    'toolFileName',
    'userProfileRoot',
    'writeProfile',
  ])
})
