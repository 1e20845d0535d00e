// Running a collection: the steps chosen (`grep`, with the steps whose captures they use), every
// `${NAME}` checked, the servers resolved and connected at once, then the steps in file order —
// or, in parallel mode, each server's steps in order with the servers side by side. `bail` skips
// what follows a failure; the caller's signal (a total time limit) stops the run.

import { pathToFileURL } from 'node:url'
import type { ConnectOptions, InputHandler, Session } from '@mcp-kit/client'
import type { ResolvedReference } from '@mcp-kit/profiles'
import type { Answers, Collection, CollectionResult, Step, StepResult } from '../collection-types.js'
import { durationMs } from '../durations.js'
import { CollectionError } from '../errors.js'
import { answersHandler, type InputSwitch, inputSwitch } from './answers.js'
import { loadBaseline } from './baseline.js'
import { runStep } from './run-step.js'
import { captureSources, selectSteps } from './select-steps.js'
import { defaultResolver, protocolOf, type ReferenceResolver, resolveServer } from './servers.js'
import { runVariables } from './variables.js'

export interface ServerConnection {
  /** The server's name in the collection. */
  name: string
  /** Answers the server's questions: hand it to the session (it routes them to the running step). */
  input: InputHandler
  /** The revision the entry pins (`protocol:`), else undefined (auto). */
  protocol?: string
  signal: AbortSignal
}

export interface RunOptions {
  /** `${NAME}` from the environment (default process.env). */
  env?: Readonly<Record<string, string | undefined>>
  /** `${NAME}` values that win over the environment and the file (the CLI's --env). */
  variables?: Readonly<Record<string, string>>
  /** The secret store `${secret:KEY}` reads (default: the profiles' secretsPath(env)). */
  secretsPath?: string
  /** Run only the steps whose name (or `collection › step`) matches, and the steps they take captures from. */
  grep?: string | RegExp
  /** Run only the steps at these indexes (0-based), and the steps they take captures from. */
  only?: readonly number[]
  /** After a failed step, skip the rest. */
  bail?: boolean
  /** Each server's steps in order, the servers side by side (also `parallel: true` in the file). */
  parallel?: boolean
  /** A step's time limit when neither it nor the collection sets one (default 60 s). */
  stepTimeoutMs?: number
  /** Aborting stops the run: the running steps fail, the rest are skipped. */
  signal?: AbortSignal
  /** Called as each step starts (one that runs: not a skipped one). */
  onStepStart?(step: Step): void
  /** Called as each step ends. */
  onStep?(result: StepResult): void | Promise<void>
  /** How reference strings are resolved (default: profiles' resolveReference from the collection's directory). */
  resolveReference?: ReferenceResolver
  /** How a server is connected (default: the client's connect with `connectOptions`). */
  connect?(server: ResolvedReference, connection: ServerConnection): Promise<Session>
  /** Options of the default connect. */
  connectOptions?: ConnectOptions
  /** The handler of a step's questions (default: answersHandler, the step's answers and the form's defaults). */
  inputFor?(answers: Answers | undefined, step: Step): InputHandler
}

/** Errors resolving a server that mean the file names it wrongly (not that it is down). */
const fileProblems = new Set([
  'invalid_collection',
  'invalid_reference',
  'profile_not_found',
  'profile_invalid',
  'missing_env',
  'missing_secret',
  'missing_input',
  'invalid_input',
  'server_not_found',
])

export async function runCollection(
  collection: Collection,
  options: RunOptions = {},
): Promise<CollectionResult> {
  const started = performance.now()
  const signal = options.signal ?? new AbortController().signal
  const parallel = options.parallel === true || collection.document.parallel === true
  const selected = selectSteps(collection, options.grep, options.only)
  const variables = await runVariables(collection, {
    env: options.env ?? process.env,
    variables: options.variables ?? {},
    secretsPath: options.secretsPath,
  })
  if (parallel) {
    for (const step of selected)
      for (const { name, source } of captureSources(collection, step, true))
        if (source === undefined)
          throw new CollectionError(
            'invalid_collection',
            `${collection.file || collection.name}:${step.line}: step ${step.index + 1} '${step.name}': uses \${${name}}, which only another server's step captures: servers running in parallel share no captures`,
          )
  }
  const running = selected.filter((step) => step.entry.skip === undefined || step.entry.skip === false)
  const names = [...new Set(running.map((step) => step.server))]
  const resolver = options.resolveReference ?? defaultResolver
  const resolved = new Map<string, ResolvedReference>()
  for (const name of names) {
    try {
      resolved.set(name, await resolveServer(collection, name, variables, resolver))
    } catch (error) {
      // A server the file names wrongly is the file's problem: say where it is.
      const code = (error as { code?: unknown }).code
      if (typeof code !== 'string' || !fileProblems.has(code)) throw error
      const line = collection.serverLines[name] ?? 0
      throw new CollectionError(
        'invalid_collection',
        `${collection.file || collection.name}${line > 0 ? `:${line}` : ''}: server '${name}': ${(error as Error).message}`,
        { cause: error, details: { server: name, code } },
      )
    }
  }
  const switches = new Map<string, InputSwitch>()
  const roots = async () => [{ uri: pathToFileURL(collection.directory).href, name: collection.name }]
  const sessions = new Map<string, Promise<Session>>()
  const closing = new AbortController()
  const connectTo = async (name: string): Promise<Session> => {
    const input = inputSwitch(roots)
    switches.set(name, input)
    const server = resolved.get(name) as ResolvedReference
    const connection = {
      name,
      input: input.handler,
      protocol: protocolOf(collection, name),
      signal: AbortSignal.any([signal, closing.signal]),
    }
    if (options.connect) return options.connect(server, connection)
    const { connect } = await import('@mcp-kit/client')
    return connect(server.server, {
      ...options.connectOptions,
      input: connection.input,
      toolFilter: server.profile?.toolFilter ?? null,
      signal: connection.signal,
      ...(connection.protocol === undefined
        ? {}
        : { protocol: connection.protocol as ConnectOptions['protocol'] }),
    })
  }
  for (const name of names) {
    const session = connectTo(name)
    session.catch(() => {}) // reported by each of its steps
    sessions.set(name, session)
  }
  const results = new Map<number, StepResult>()
  const captured: Record<string, unknown> = {}
  const laneCaptures = new Map<string, Record<string, unknown>>()
  let failed = false
  const stepTimeout = durationMs(collection.document.timeout) ?? options.stepTimeoutMs ?? 60_000
  const runOne = async (step: Step): Promise<void> => {
    let result: StepResult
    const skip = (reason: string): StepResult => ({
      index: step.index,
      name: step.name,
      server: step.server,
      line: step.line,
      status: 'skipped',
      durationMs: 0,
      failures: [],
      skipped: reason,
    })
    const values = parallel
      ? (laneCaptures.get(step.server) ??
        (laneCaptures.set(step.server, {}).get(step.server) as Record<string, unknown>))
      : captured
    const missing = captureSources(collection, step, parallel).find(
      (use): use is { name: string; source: Step } =>
        use.source !== undefined && !Object.hasOwn(values, use.name),
    )
    if (signal.aborted) result = skip(`the run stopped: ${(signal.reason as Error)?.message ?? 'given up'}`)
    else if (options.bail && failed) result = skip('bail: an earlier step failed')
    else if (missing !== undefined)
      result = skip(
        `needs \${${missing.name}}, which step ${missing.source.index + 1} '${missing.source.name}' did not capture`,
      )
    else {
      options.onStepStart?.(step)
      result = await runStep(step, {
        collection,
        session: () => sessions.get(step.server) as Promise<Session>,
        input: switches.get(step.server) ?? inputSwitch(roots),
        inputFor: options.inputFor ?? ((answers) => answersHandler(answers)),
        variables,
        captured: values,
        timeoutMs: durationMs(step.entry.timeout) ?? stepTimeout,
        signal,
        baseline: (file) => loadBaseline(collection, file),
      })
    }
    if (result.status === 'failed' || result.status === 'error') failed = true
    results.set(step.index, result)
    await options.onStep?.(result)
  }
  try {
    if (parallel) {
      const lanes = new Map<string, Step[]>()
      for (const step of selected) lanes.set(step.server, [...(lanes.get(step.server) ?? []), step])
      await Promise.all(
        [...lanes.values()].map(async (lane) => {
          for (const step of lane) await runOne(step)
        }),
      )
    } else for (const step of selected) await runOne(step)
  } finally {
    closing.abort()
    await Promise.allSettled(
      [...sessions.values()].map(async (session) => (await session.catch(() => undefined))?.close()),
    )
  }
  const unreachable: CollectionResult['unreachable'] = []
  for (const [name, session] of sessions) {
    const error = await session.then(
      () => undefined,
      (reason: unknown) => reason,
    )
    if (error !== undefined)
      unreachable.push({
        server: name,
        message: (error as Error).message ?? String(error),
        code: String((error as { code?: unknown }).code ?? 'internal'),
      })
  }
  return {
    file: collection.file,
    name: collection.name,
    steps: selected.map((step) => results.get(step.index) as StepResult),
    durationMs: performance.now() - started,
    unreachable,
  }
}
