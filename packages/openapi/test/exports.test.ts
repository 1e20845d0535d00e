import { expect, test } from 'vitest'
import * as openapi from '../src/index.js'

test('the public runtime exports are exactly these', () => {
  expect(Object.keys(openapi).sort()).toEqual([
    'OpenApiError',
    'createOpenApiRegistry',
    'credentialsFromEnvironment',
    'environmentVariable',
    'loadOpenApi',
    'openApiTools',
  ])
})
