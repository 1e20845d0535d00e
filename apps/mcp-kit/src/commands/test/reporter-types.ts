// What a reporter of `mcp-kit test` is: the lines it writes for a collection, a step and the end.

import type { CollectionResult, StepResult } from '@mcp-kit/collections'

export interface CollectionInfo {
  name: string
  file: string
}

/** One report: text as each collection starts and each step ends, and at the end. */
export interface Reporter {
  collection?(collection: CollectionInfo): string
  step(result: StepResult, collection: CollectionInfo, number: number): string
  end(results: readonly CollectionResult[], durationMs: number, updated: number): string
}
