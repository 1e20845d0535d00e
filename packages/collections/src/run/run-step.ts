// One step: its placeholders filled (captured values, variables, secrets), its questions routed
// to its answers, the operation run within the step's time limit, its expectations checked and
// its captures taken. Whatever goes wrong becomes the step's result, never a throw.

import type { InputHandler, Session, Tool } from '@mcp-kit/client'
import { evaluate } from '../assert/evaluate.js'
import { matchesOf } from '../assert/json-path.js'
import type {
  Answers,
  BaselineTool,
  Collection,
  Failure,
  Observation,
  Step,
  StepEntry,
  StepResult,
} from '../collection-types.js'
import { describeDuration } from '../durations.js'
import { fillPlaceholders } from '../placeholders.js'
import type { InputSwitch } from './answers.js'
import { execute } from './execute.js'

export interface StepContext {
  collection: Collection
  /** The step's session (connects on first use; rejects when the server cannot be reached). */
  session(): Promise<Session>
  input: InputSwitch
  inputFor(answers: Answers | undefined, step: Step): InputHandler
  variables: Readonly<Record<string, string | undefined>>
  /** Values captured so far; this step's captures are added. */
  captured: Record<string, unknown>
  timeoutMs: number
  /** Aborts when the run is given up (its time limit, the caller). */
  signal: AbortSignal
  baseline(file: string): Promise<BaselineTool[]>
}

const wholeVariable = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/

/**
 * A string argument that was one `${NAME}` of a variable (text from the environment or --env)
 * is taken as the tool's parameter type asks, as the CLI takes query strings.
 */
async function coerceVariables(
  written: Record<string, unknown> | undefined,
  filled: Record<string, unknown>,
  tool: Tool | undefined,
  captured: Readonly<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  if (written === undefined || tool === undefined) return filled
  const strings: Record<string, string> = {}
  for (const [key, value] of Object.entries(written)) {
    const name = typeof value === 'string' ? wholeVariable.exec(value)?.[1] : undefined
    if (name !== undefined && !Object.hasOwn(captured, name) && typeof filled[key] === 'string')
      strings[key] = filled[key] as string
  }
  if (Object.keys(strings).length === 0) return filled
  const { coerceArguments } = await import('@mcp-kit/schema')
  return { ...filled, ...coerceArguments(strings, tool.inputSchema) }
}

function capture(
  step: Step,
  observation: Observation,
): { failures: Failure[]; taken: Record<string, unknown> } {
  const failures: Failure[] = []
  const document = observation.result ?? (observation.error ? { error: observation.error } : undefined)
  const taken: Record<string, unknown> = {}
  for (const [name, path] of Object.entries(step.entry.capture ?? {})) {
    const [first] = document === undefined ? [] : matchesOf(document, path)
    if (first === undefined)
      failures.push({ assertion: 'capture', message: `capture '${name}': ${path} matched nothing` })
    else taken[name] = first.value
  }
  return { failures, taken }
}

export async function runStep(step: Step, context: StepContext): Promise<StepResult> {
  const started = performance.now()
  const base = { index: step.index, name: step.name, server: step.server, line: step.line }
  const finish = (fields: Partial<StepResult> & Pick<StepResult, 'status'>): StepResult => ({
    ...base,
    durationMs: performance.now() - started,
    failures: [],
    ...fields,
  })
  if (step.entry.skip !== undefined && step.entry.skip !== false)
    return finish({
      status: 'skipped',
      skipped: typeof step.entry.skip === 'string' ? step.entry.skip : 'skip: true',
    })
  let entry: StepEntry
  try {
    const fill = {
      captured: context.captured,
      variables: context.variables,
      where: { file: context.collection.file || context.collection.name, field: `steps[${step.index}]` },
    }
    entry = {
      ...step.entry,
      ...fillPlaceholders(
        {
          call: step.entry.call,
          read: step.entry.read,
          prompt: step.entry.prompt,
          arguments: step.entry.arguments,
          answers: step.entry.answers,
        },
        fill,
      ),
    }
    if (step.entry.expect?.json)
      entry.expect = { ...step.entry.expect, json: fillPlaceholders(step.entry.expect.json, fill) }
  } catch (error) {
    return finish({ status: 'failed', failures: [{ assertion: 'run', message: (error as Error).message }] })
  }
  let session: Session
  try {
    session = await context.session()
  } catch (error) {
    return finish({
      status: 'error',
      failures: [{ assertion: 'connect', message: (error as Error).message }],
    })
  }
  const operation =
    step.operation.kind === 'call'
      ? { kind: 'call' as const, name: entry.call as string }
      : step.operation.kind === 'read'
        ? { kind: 'read' as const, uri: entry.read as string }
        : step.operation.kind === 'prompt'
          ? { kind: 'prompt' as const, name: entry.prompt as string }
          : step.operation
  let callArguments = entry.arguments ?? {}
  if (operation.kind === 'call' && step.entry.arguments !== undefined) {
    const tool = await session.getTool(operation.name).catch(() => undefined)
    callArguments = await coerceVariables(step.entry.arguments, callArguments, tool, context.captured)
  }
  const limit = AbortSignal.timeout(context.timeoutMs)
  context.input.use(context.inputFor(entry.answers, step))
  let observation: Observation
  try {
    observation = await execute(
      session,
      { operation, arguments: callArguments, task: entry.task === true },
      { signal: AbortSignal.any([context.signal, limit]), timeoutMs: context.timeoutMs },
    )
  } finally {
    context.input.use(undefined)
  }
  if (context.signal.aborted || limit.aborted) {
    const message = limit.aborted
      ? `no answer within ${describeDuration(context.timeoutMs)} (the step's timeout)`
      : `the run stopped: ${(context.signal.reason as Error)?.message ?? 'given up'}`
    return finish({ status: 'failed', failures: [{ assertion: 'timeout', message }], observation })
  }
  const failures = await evaluate(entry.expect, observation, {
    operation,
    masks: context.collection.document.masks ?? [],
    tools: () => session.listTools(),
    baseline: context.baseline,
  }).catch((error: unknown): Failure[] => [{ assertion: 'run', message: (error as Error).message }])
  const { failures: missed, taken } = capture(step, observation)
  failures.push(...missed)
  Object.assign(context.captured, taken)
  return finish({
    status: failures.length === 0 ? 'passed' : 'failed',
    failures,
    observation,
    ...(Object.keys(taken).length > 0 ? { captured: taken } : {}),
  })
}
