import { expect, it } from 'vitest'

it('the public API is exactly what we mean to publish', async () => {
  const exported = Object.keys(await import('../src/index.js')).sort()
  expect(exported).toEqual([
    'ProfileError',
    'assertValidName',
    'describeServer',
    'findProfile',
    'formatReference',
    'isValidName',
    'launchers',
    'listProfileTools',
    'listProfiles',
    'loadProfile',
    'loadProfileTool',
    'nodeFileSystem',
    'parseJsonFile',
    'parseReference',
    'profileRoots',
    'projectProfileRoot',
    'resolveReference',
    'serverFromMeta',
    'substituteString',
    'substituteValue',
    'userProfileRoot',
  ])
})
