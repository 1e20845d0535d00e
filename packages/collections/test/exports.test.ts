import { expect, test } from 'vitest'
import * as collections from '../src/index.js'

test('the public runtime exports are exactly these', () => {
  expect(Object.keys(collections).sort()).toEqual([
    'CollectionError',
    'addStep',
    'answersHandler',
    'appendCalls',
    'collectionFromCalls',
    'collectionSchema',
    'collectionSchemaUrl',
    'collectionText',
    'countSteps',
    'createCollection',
    'formatProblem',
    'junitReport',
    'loadCollection',
    'observationOf',
    'parseCollection',
    'removeStep',
    'replaceStep',
    'runCollection',
    'runVariables',
    'saveCollection',
    'selectSteps',
    'setExpectations',
    'setField',
    'setServer',
    'stepRecord',
    'summaryRecord',
    'tapHeader',
    'tapPlan',
    'tapStep',
    'updateSnapshots',
  ])
})

test('the JSON Schema ships with the package and says where it is published', () => {
  const schema = collections.collectionSchema()
  expect(schema.$id).toBe(collections.collectionSchemaUrl)
  expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema')
})
