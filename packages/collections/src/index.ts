// @mcp-kit/collections — public API. Any new export added here becomes public API; the list is
// pinned in test/exports.test.ts.
// (Blank lines keep the groups apart when imports are sorted.)

// Errors

export type { CollectionErrorCode, CollectionErrorOptions, CollectionProblem } from './errors.js'
export { CollectionError, formatProblem } from './errors.js'

// Collection files: read and check, change, write

export type * from './collection-types.js'
export {
  addStep,
  collectionSchemaUrl,
  collectionText,
  createCollection,
  removeStep,
  replaceStep,
  saveCollection,
  setExpectations,
  setField,
  setServer,
} from './file/edit-collection.js'
export type { ParseOptions } from './file/load-collection.js'
export { loadCollection, parseCollection } from './file/load-collection.js'
export { collectionSchema } from './file/schema-check.js'

// Running: a collection, or some of its steps, against live servers

export { answersHandler } from './run/answers.js'
export { observationOf } from './run/execute.js'
export type { RunOptions, ServerConnection } from './run/run-collection.js'
export { runCollection } from './run/run-collection.js'
export { selectSteps } from './run/select-steps.js'
export type { ReferenceResolver } from './run/servers.js'
export type { VariableSources } from './run/variables.js'
export { runVariables } from './run/variables.js'

// Recording: calls as steps, and snapshots brought up to date

export { appendCalls, collectionFromCalls } from './record/record-collection.js'
export type { RecordedCall } from './record/recorded-calls.js'
export type { UpdatedSnapshots } from './record/update-snapshots.js'
export { updateSnapshots } from './record/update-snapshots.js'

// Reports: NDJSON records, JUnit XML, TAP

export { junitReport } from './report/junit.js'
export type { RunCounts } from './report/ndjson.js'
export { countSteps, stepRecord, summaryRecord } from './report/ndjson.js'
export { tapHeader, tapPlan, tapStep } from './report/tap.js'
