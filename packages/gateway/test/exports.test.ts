import { expect, test } from 'vitest'
import * as gateway from '../src/index.js'

test('the public runtime exports are exactly these', () => {
  expect(Object.keys(gateway).sort()).toEqual([
    'CollisionError',
    'ConfigError',
    'compileFilter',
    'compilePrincipal',
    'createGateway',
    'defaultDiscoveryCacheDir',
    'defaultPrefix',
    'fileDiscoveryCache',
    'maximumNameLength',
    'namespacedName',
    'rateLimitedCode',
    'readControlsFile',
    'readGatewayConfig',
    'tokenVerifier',
  ])
})
