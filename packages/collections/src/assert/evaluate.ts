// A step's expectations against what it observed: success or the error asked for, the result
// snapshot, JSONPath assertions, outputSchema conformance, schema hash and drift, the latency
// budget, whether the call became a task. Every assertion that does not hold is a Failure.

import type { Tool } from '@mcp-kit/client'
import type {
  BaselineTool,
  Expectations,
  Failure,
  Mask,
  Observation,
  Operation,
} from '../collection-types.js'
import { describeDuration, durationMs } from '../durations.js'
import { checkJsonAssertion } from './json-assertions.js'
import { preview } from './json-path.js'
import { compareSnapshot } from './snapshot.js'
import { checkDrift, checkOutputSchema, checkSchemaHash } from './tool-checks.js'

export interface EvaluationContext {
  operation: Operation
  /** The collection's masks (a step's own come on top). */
  masks: readonly Mask[]
  /** The server's tools (for outputSchema; lists come from the observation itself). */
  tools(): Promise<readonly Tool[]>
  /** A drift baseline named by file. */
  baseline(file: string): Promise<BaselineTool[]>
}

function errorFailures(expected: Expectations['error'], observation: Observation): Failure[] {
  const error = observation.error
  const wanted = expected === undefined || expected === false ? undefined : expected
  if (wanted === undefined) {
    if (error === undefined) return []
    return [{ assertion: 'error', message: `failed with ${error.code}: ${error.message}`, actual: error }]
  }
  const code = typeof wanted === 'string' ? wanted : wanted === true ? undefined : wanted.code
  const text = typeof wanted === 'object' ? wanted.message : undefined
  const described = [code, text === undefined ? undefined : `a message containing ${preview(text)}`]
    .filter(Boolean)
    .join(' with ')
  if (error === undefined)
    return [
      {
        assertion: 'error',
        message: `expected it to fail${described ? ` (${described})` : ''}, but it succeeded`,
        expected: wanted,
      },
    ]
  const failures: Failure[] = []
  if (code !== undefined && code !== error.code && code !== String(error.rpcCode ?? ''))
    failures.push({
      assertion: 'error',
      message: `expected error ${code}, got ${error.code}: ${error.message}`,
      expected: code,
      actual: error.code,
    })
  if (text !== undefined && !error.message.includes(text))
    failures.push({
      assertion: 'error',
      message: `expected an error message containing ${preview(text)}, got ${preview(error.message, 200)}`,
      expected: text,
      actual: error.message,
    })
  return failures
}

export async function evaluate(
  expect: Expectations | undefined,
  observation: Observation,
  context: EvaluationContext,
): Promise<Failure[]> {
  const expectations = expect ?? {}
  const outputSchemaError =
    expectations.outputSchema === true &&
    observation.error?.code === 'protocol_error' &&
    observation.error.message.includes('outputSchema')
  const failures: Failure[] = outputSchemaError
    ? [{ assertion: 'outputSchema', message: observation.error?.message ?? '' }]
    : errorFailures(expectations.error, observation)
  const result = observation.result
  const masks = [...context.masks, ...(expectations.masks ?? [])]
  if (Object.hasOwn(expectations, 'result')) {
    if (result === undefined)
      failures.push({
        assertion: 'result',
        message: `no result to compare: ${observation.error?.message ?? 'nothing came'}`,
      })
    else failures.push(...compareSnapshot(expectations.result, result, masks))
  }
  for (const assertion of expectations.json ?? []) {
    if (result === undefined) {
      failures.push({ assertion: 'json', message: `${assertion.path}: no result to look into` })
      continue
    }
    failures.push(...(await checkJsonAssertion(result, assertion)))
  }
  const operation = context.operation
  if (
    expectations.outputSchema === true &&
    !outputSchemaError &&
    result !== undefined &&
    operation.kind === 'call'
  ) {
    const tool = (await context.tools()).find((candidate) => candidate.name === operation.name)
    failures.push(...(await checkOutputSchema(tool, result, operation.name)))
  }
  const listed = (result as { tools?: Tool[] } | undefined)?.tools
  if (expectations.schemaHash !== undefined && Array.isArray(listed))
    failures.push(...(await checkSchemaHash(listed, expectations.schemaHash)))
  if (expectations.drift !== undefined && Array.isArray(listed)) {
    const { baseline, allow = 'non-breaking' } = expectations.drift
    const tools = typeof baseline === 'string' ? await context.baseline(baseline) : baseline
    failures.push(...(await checkDrift(listed, tools, allow)))
  }
  const budget = durationMs(expectations.maxLatency)
  if (budget !== undefined && observation.latencyMs > budget)
    failures.push({
      assertion: 'maxLatency',
      message: `took ${describeDuration(observation.latencyMs)}, over the budget of ${describeDuration(budget)}`,
      expected: budget,
      actual: observation.latencyMs,
    })
  if (expectations.task !== undefined && expectations.task !== observation.task)
    failures.push({
      assertion: 'task',
      message: expectations.task
        ? 'expected the call to become a task; it was answered at once'
        : 'expected an answer at once; the call became a task',
      expected: expectations.task,
      actual: observation.task,
    })
  return failures
}
