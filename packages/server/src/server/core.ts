// What every connection of one server shares, built once: identity and capabilities, the method
// table of both eras, the 2026-07-28 request handler (with its tasks) and the requestState codec.

import { createRequire } from 'node:module'
import type { Implementation } from '../context.js'
import { createStateCodec, type StateCodec } from '../protocol/input-required.js'
import type { ServerInfoOptions } from '../registry/registry.js'
import { type Runtime, runtimeInternals } from '../runtime/runtime.js'
import { TaskManager } from '../tasks/manager.js'
import type { TaskOptions } from '../tasks/options.js'
import { tasksExtension } from '../tasks/wire.js'
import { type MethodHandler, sharedMethods } from './methods.js'
import { createModernHandler, type ModernHandler } from './modern.js'
import type { ChangeFeed } from './subscriptions.js'

let version: string | undefined

/** This package's version, read from its package.json once it is needed. */
export function packageVersion(): string {
  version ??= (createRequire(import.meta.url)('../../package.json') as { version: string }).version
  return version
}

/**
 * Who the server says it is; each unset here is the registry's (createToolRegistry options), and
 * failing that `mcp-kit` with this package's version (a name without a version: `0.0.0`).
 */
export interface ProtocolServerOptions extends ServerInfoOptions {
  /**
   * Key of the HMAC that protects 2026-07-28 `requestState` (32+ bytes). Every instance that may
   * receive a client's retry needs the same key; default: a random key per process.
   */
  stateKey?: Uint8Array | string | undefined
  /** Where 2026-07-28 subscriptions hear about changes (default: the registry's events). */
  changes?: ChangeFeed | undefined
  /**
   * Tasks (the io.modelcontextprotocol/tasks extension of 2026-07-28, for tools that declare
   * `taskSupport`): where records live, how long results are kept, the suggested poll interval.
   */
  tasks?: TaskOptions | undefined
  /**
   * A 2025-era question to the client (elicitation, sampling, roots) that gets no answer this
   * long fails, so the tool that asked ends with an error instead of waiting for ever (default
   * 600 000 ms; 0: no limit). 2026-07-28 questions are the client's retries and never wait here.
   */
  questionTimeoutMs?: number | undefined
  /** Diagnostics for the operator (never sent to clients). */
  onError?: ((error: Error) => void) | undefined
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
  const serverInfo = serverInfoOf(options, runtime.registry.serverInfo)
  const instructions = options.instructions ?? runtime.registry.serverInfo.instructions
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
    instructions,
    legacyCapabilities: capabilities,
    methods,
    stateCodec,
    report: options.onError,
    changes: options.changes,
    questionTimeoutMs: options.questionTimeoutMs ?? 600_000,
    modern: createModernHandler({
      serverInfo,
      instructions,
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

function serverInfoOf(options: ServerInfoOptions, registry: Readonly<ServerInfoOptions>): Implementation {
  const name = options.name ?? registry.name
  const version = options.version ?? registry.version
  if (name === undefined) return { name: 'mcp-kit', version: version ?? packageVersion() }
  return { name, version: version ?? '0.0.0' }
}
