// NDJSON records of a run, as the CLI prints them when stdout is not a terminal: one per step as
// it ends, then one summary. Field names follow the traces' (`duration_ms`).

import type { CollectionResult, StepResult } from '../collection-types.js'

export function stepRecord(
  step: StepResult,
  collection: { name: string; file: string },
): Record<string, unknown> {
  return {
    type: 'step',
    collection: collection.name,
    ...(collection.file ? { file: collection.file } : {}),
    step: step.name,
    index: step.index + 1,
    ...(step.line > 0 ? { line: step.line } : {}),
    server: step.server,
    status: step.status,
    duration_ms: Math.round(step.durationMs),
    ...(step.failures.length > 0 ? { failures: step.failures } : {}),
    ...(step.skipped === undefined ? {} : { skipped: step.skipped }),
    ...(step.captured === undefined ? {} : { captured: Object.keys(step.captured) }),
  }
}

export interface RunCounts {
  passed: number
  failed: number
  errors: number
  skipped: number
}

export function countSteps(results: readonly CollectionResult[]): RunCounts {
  const steps = results.flatMap((result) => result.steps)
  return {
    passed: steps.filter((step) => step.status === 'passed').length,
    failed: steps.filter((step) => step.status === 'failed').length,
    errors: steps.filter((step) => step.status === 'error').length,
    skipped: steps.filter((step) => step.status === 'skipped').length,
  }
}

export function summaryRecord(
  results: readonly CollectionResult[],
  durationMs: number,
): Record<string, unknown> {
  return {
    type: 'summary',
    collections: results.length,
    ...countSteps(results),
    duration_ms: Math.round(durationMs),
    ...(results.some((result) => result.unreachable.length > 0)
      ? {
          unreachable: results.flatMap((result) =>
            result.unreachable.map((server) => ({ collection: result.name, ...server })),
          ),
        }
      : {}),
  }
}
