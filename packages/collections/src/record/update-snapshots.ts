// `--update`: the expectations that are observations (a result snapshot, the error code, the
// schema hash, an inline drift baseline, whether the call became a task) rewritten from what a
// run observed, for the steps whose observations no longer held. Assertions a person wrote
// (JSONPaths, outputSchema, latency budgets) stay as they are.

import type { Tool } from '@mcp-kit/client'
import type { Collection, CollectionResult, Expectations } from '../collection-types.js'
import { setExpectations } from '../file/edit-collection.js'
import { baselineTool } from './recorded-calls.js'

const observed = new Set(['result', 'error', 'schemaHash', 'drift', 'task'])

export interface UpdatedSnapshots {
  collection: Collection
  /** The steps (0-based indexes) whose expectations were rewritten. */
  updated: number[]
  /** Those of them whose every failure was an observation: they pass against the rewritten file. */
  passing: number[]
}

export async function updateSnapshots(
  collection: Collection,
  result: CollectionResult,
): Promise<UpdatedSnapshots> {
  const { hashTools } = await import('@mcp-kit/schema')
  let updated = collection
  const indexes: number[] = []
  const passing: number[] = []
  for (const step of result.steps) {
    const observation = step.observation
    if (step.status !== 'failed' || observation === undefined) continue
    if (!step.failures.some((failure) => observed.has(failure.assertion))) continue
    const entry = collection.steps.find((candidate) => candidate.index === step.index)?.entry
    const expect = entry?.expect ?? {}
    const changes: { [Key in keyof Expectations]?: Expectations[Key] | undefined } = {}
    const error = observation.error
    if (expect.error !== undefined || error !== undefined) {
      const keepsShape = typeof expect.error === 'object' && expect.error.code !== undefined
      changes.error = error === undefined ? undefined : keepsShape ? { code: error.code } : error.code
    }
    const tools = (observation.result as { tools?: Tool[] } | undefined)?.tools
    if (Object.hasOwn(expect, 'result') || (expect.schemaHash === undefined && expect.drift === undefined))
      changes.result = observation.result
    if (expect.schemaHash !== undefined && Array.isArray(tools)) changes.schemaHash = hashTools(tools)
    if (Array.isArray(expect.drift?.baseline) && Array.isArray(tools)) {
      const names = new Set(expect.drift.baseline.map((tool) => tool.name))
      changes.drift = {
        ...expect.drift,
        baseline: tools.filter((tool) => names.has(tool.name)).map(baselineTool),
      }
    }
    if (expect.task !== undefined) changes.task = observation.task
    updated = setExpectations(updated, step.index, changes)
    indexes.push(step.index)
    if (step.failures.every((failure) => observed.has(failure.assertion))) passing.push(step.index)
  }
  return { collection: updated, updated: indexes, passing }
}
