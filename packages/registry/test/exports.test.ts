import { expect, test } from 'vitest'
import * as registry from '../src/index.js'

test('the public runtime exports are exactly these', () => {
  expect(Object.keys(registry).sort()).toEqual([
    'RegistryError',
    'createRegistryClient',
    'currentSchemaUrl',
    'defaultRegistryCacheDir',
    'defaultRegistryUrl',
    'fileResponseCache',
    'lintServerJson',
    'loadServerSchema',
    'memoryResponseCache',
    'officialMetaKey',
  ])
})
