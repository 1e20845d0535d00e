// What every connection of one server shares, built once: identity and capabilities, the method
// table of both eras, the 2026-07-28 request handler (with its tasks) and the requestState codec.

import type { Implementation } from '../context.js'
import { createStateCodec, type StateCodec } from '../protocol/input-required.js'
import { type Runtime, runtimeInternals } from '../runtime/runtime.js'
import { TaskManager } from '../tasks/task-manager.js'
import type { TaskOptions } from '../tasks/task-options.js'
import { tasksExtension } from '../tasks/task-wire.js'
import { type MethodHandler, sharedMethods } from './methods.js'
import { createModernHandler, type ModernHandler } from './modern.js'
import type { ChangeFeed } from './subscriptions.js'

export const packageVersion = '0.1.0'

export interface ProtocolServerOptions {
  /** serverInfo.name (default "mcp-kit"). */
  name?: string
  /** serverInfo.version (default this package's version). */
  version?: string
  /** Told to clients (initialize, server/discover): how to use this server. */
  instructions?: string
  /**
   * Key of the HMAC that protects 2026-07-28 `requestState` (32+ bytes). Every instance that may
   * receive a client's retry needs the same key; default: a random key per process.
   */
  stateKey?: Uint8Array | string
  /** Where 2026-07-28 subscriptions hear about changes (default: the registry's events). */
  changes?: ChangeFeed
  /**
   * Tasks (the io.modelcontextprotocol/tasks extension of 2026-07-28, for tools that declare
   * `taskSupport`): where records live, how long results are kept, the suggested poll interval.
   */
  tasks?: TaskOptions
  /**
   * A 2025-era question to the client (elicitation, sampling, roots) that gets no answer this
   * long fails, so the tool that asked ends with an error instead of waiting for ever (default
   * 600 000 ms; 0: no limit). 2026-07-28 questions are the client's retries and never wait here.
   */
  questionTimeoutMs?: number
  /** Diagnostics for the operator (never sent to clients). */
  onError?: (error: Error) => void
}

/** What every connection of one server shares. */
export interface ServerCore {
  readonly runtime: Runtime
  readonly serverInfo: Implementation
  readonly instructions: string | undefined
  readonly legacyCapabilities: Record<string, unknown>
  readonly methods: ReadonlyMap<string, MethodHandler>
  readonly modern: ModernHandler
  readonly stateCodec: StateCodec
  readonly report: ((error: Error) => void) | undefined
  /** The change feed shared by every instance, when one was given (2025 sessions on a store use it). */
  readonly changes: ChangeFeed | undefined
  readonly questionTimeoutMs: number
}

export function createServerCore(runtime: Runtime, options: ProtocolServerOptions = {}): ServerCore {
  const serverInfo = { name: options.name ?? 'mcp-kit', version: options.version ?? packageVersion }
  const methods = sharedMethods(runtime, runtimeInternals(runtime))
  const stateCodec = createStateCodec(options.stateKey)
  const capabilities = {
    tools: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    prompts: { listChanged: true },
    logging: {},
    completions: {},
  }
  // The tasks extension exists in 2026-07-28 only (SEP-2663 "Backward Compatibility").
  const modernCapabilities = { ...capabilities, extensions: { [tasksExtension]: {} } }
  return {
    runtime,
    serverInfo,
    instructions: options.instructions,
    legacyCapabilities: capabilities,
    methods,
    stateCodec,
    report: options.onError,
    changes: options.changes,
    questionTimeoutMs: options.questionTimeoutMs ?? 600_000,
    modern: createModernHandler({
      serverInfo,
      instructions: options.instructions,
      capabilities: modernCapabilities,
      registry: runtime.registry,
      methods,
      stateCodec,
      changes: options.changes,
      tasks: new TaskManager(options.tasks, options.onError),
      report: options.onError,
    }),
  }
}
