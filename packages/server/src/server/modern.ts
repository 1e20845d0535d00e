// MCP 2026-07-28 requests, served statelessly: each request carries its protocol version and
// client capabilities in `_meta`, so any process can answer it. The checks run in the order of
// the spec's validation ladder (the SDK's `classifyInboundRequest` follows it too): version claim
// and header cross-check, envelope, method, standard headers, params, parameter headers. Results
// get `resultType`, the server's identity in `_meta`, and cache hints on lists and reads;
// questions a handler asks end the round with `input_required` (protocol/input-required.ts).

import {
  findParamHeaders,
  isModernVersion,
  isRecord,
  modernProtocolVersions,
  paramHeaderMismatch,
} from '@mcp-kit/core'
import { principalOf } from '../auth/principal.js'
import type { AuthInfo, ClientCapabilities, Implementation, LoggingLevel } from '../context.js'
import { rpcCodes } from '../errors.js'
import { failureOf } from '../protocol/failure.js'
import {
  answersOf,
  inputRequiredResult,
  isInputRequired,
  ModernInputChannel,
  missingCapabilityError,
  type StateCodec,
  stateBinding,
} from '../protocol/input-required.js'
import { metaKeys } from '../protocol/meta-keys.js'
import { checkNesting, isLoggingLevel, paramsObject } from '../protocol/params.js'
import { RequestContext, type RequestContextInit } from '../protocol/request-context.js'
import {
  errorResponse,
  invalidParams,
  methodNotFound,
  printable,
  RpcFailure,
  type RpcNotification,
  type RpcRequest,
  type RpcResponse,
} from '../protocol/rpc.js'
import { checkStandardHeaders, headerMismatch } from '../protocol/standard-headers.js'
import { traceContextOf } from '../protocol/trace-context.js'
import type { ToolRegistry } from '../registry/registry.js'
import { callAsTask, planToolCall } from '../tasks/call.js'
import type { TaskManager } from '../tasks/manager.js'
import { answerTaskMethod } from '../tasks/methods.js'
import { followTasks } from '../tasks/notifications.js'
import { taskMethods } from '../tasks/wire.js'
import { inputRequiredMethods, listMethods, type MethodHandler } from './methods.js'
import { type ChangeFeed, listen } from './subscriptions.js'

export interface ModernIo {
  /** A request header by lower-case name (HTTP); undefined over stdio, where there are none. */
  header?: (name: string) => string | undefined
  authInfo?: AuthInfo
  /** Aborted when the client goes away or cancels (HTTP: the response closed). */
  signal: AbortSignal
  /** Sends a notification that belongs to this request (progress, log messages, subscription events). */
  notify(message: RpcNotification): Promise<void>
}

export interface ModernAnswer {
  response: RpcResponse
  /** The HTTP status to answer with when the response is the whole answer. */
  httpStatus: number
}

export interface ModernHandlerOptions {
  serverInfo: Implementation
  instructions?: string
  capabilities: Record<string, unknown>
  registry: ToolRegistry
  methods: ReadonlyMap<string, MethodHandler>
  stateCodec: StateCodec
  /** Where list and resource changes come from (default: the registry's own events). */
  changes?: ChangeFeed
  /** Runs and answers tasks (the io.modelcontextprotocol/tasks extension). */
  tasks: TaskManager
  report?: (error: Error) => void
}

export interface ModernHandler {
  handle(request: RpcRequest, io: ModernIo): Promise<ModernAnswer>
  /**
   * Shutdown: ends open subscriptions gracefully (a final result) at once; tasks running here
   * get up to `graceMs` to finish, then fail. Resolves when no task runs here any more.
   */
  close(graceMs?: number): Promise<void>
}

export function createModernHandler(options: ModernHandlerOptions): ModernHandler {
  const { registry, methods, stateCodec, report, tasks } = options
  const serverMeta = { [metaKeys.serverInfo]: options.serverInfo }
  const closing = new AbortController()
  const changes: ChangeFeed = options.changes ?? { subscribe: (listener) => registry.onChange(listener) }

  function complete(
    result: Record<string, unknown>,
    hint?: { ttlMs: number; scope: string },
  ): Record<string, unknown> {
    const meta = isRecord(result._meta) ? { ...result._meta, ...serverMeta } : serverMeta
    const decorated: Record<string, unknown> = { ...result, resultType: 'complete', _meta: meta }
    if (hint !== undefined) {
      decorated.ttlMs = hint.ttlMs
      decorated.cacheScope = hint.scope
    }
    return decorated
  }

  function discover(): Record<string, unknown> {
    const result: Record<string, unknown> = {
      supportedVersions: [...modernProtocolVersions],
      capabilities: options.capabilities,
    }
    if (options.instructions !== undefined) result.instructions = options.instructions
    return complete(result, registry.cacheHint('tools'))
  }

  function readHint(uri: string): { ttlMs: number; scope: string } {
    const resource = registry.findResource(uri)?.resource
    return { ttlMs: resource?.ttlMs ?? 0, scope: resource?.cacheScope ?? 'private' }
  }

  /** Validates everything before the method runs; returns the checked pieces. */
  function admit(request: RpcRequest, io: ModernIo) {
    const params = paramsObject(request.params)
    const meta = params._meta
    const version = isRecord(meta) ? meta[metaKeys.protocolVersion] : undefined
    if (!isRecord(meta) || typeof version !== 'string') {
      throw invalidParams(
        `_meta['${metaKeys.protocolVersion}'] is required (MCP 2026-07-28 requests carry their version)`,
        400,
      )
    }
    const versionHeader = io.header?.('mcp-protocol-version')
    if (versionHeader !== undefined && versionHeader !== version) {
      throw headerMismatch(
        `MCP-Protocol-Version '${printable(versionHeader)}' does not match _meta's '${printable(version)}'`,
      )
    }
    if (!isModernVersion(version)) {
      throw new RpcFailure(rpcCodes.unsupportedProtocolVersion, 'Unsupported protocol version', {
        data: { supported: [...modernProtocolVersions], requested: version },
        httpStatus: 400,
      })
    }
    const capabilities = meta[metaKeys.clientCapabilities]
    if (!isRecord(capabilities)) {
      throw invalidParams(`_meta['${metaKeys.clientCapabilities}'] is required (an object, {} for none)`, 400)
    }
    const clientInfo = meta[metaKeys.clientInfo]
    if (clientInfo !== undefined && !isRecord(clientInfo)) {
      throw invalidParams(`_meta['${metaKeys.clientInfo}'] must be an object`, 400)
    }
    const logLevel = meta[metaKeys.logLevel]
    if (logLevel !== undefined && !isLoggingLevel(logLevel)) {
      throw invalidParams(`_meta['${metaKeys.logLevel}'] is not a logging level`, 400)
    }
    const known =
      request.method === 'server/discover' ||
      request.method === 'subscriptions/listen' ||
      methods.has(request.method) ||
      taskMethods.has(request.method)
    if (!known) throw methodNotFound(request.method, 404)
    if (io.header !== undefined) {
      if (versionHeader === undefined) throw headerMismatch('the MCP-Protocol-Version header is required')
      checkStandardHeaders(request, params, io.header)
    }
    checkNesting(params)
    if (request.method === 'tools/call' && io.header !== undefined) checkParamHeaders(params, io.header)
    return {
      params,
      meta,
      capabilities: capabilities as ClientCapabilities,
      clientInfo: clientInfo as Implementation | undefined,
      logLevel: logLevel as LoggingLevel | undefined,
      version,
    }
  }

  function checkParamHeaders(
    params: Record<string, unknown>,
    header: (name: string) => string | undefined,
  ): void {
    const name = params.name
    if (typeof name !== 'string') return
    const tool = registry.tools.get(name)
    if (tool === undefined) return
    const found = findParamHeaders(tool.inputSchema)
    if (!found.ok || found.headers.length === 0) return
    const mismatch = paramHeaderMismatch(found.headers, params.arguments ?? {}, header)
    if (mismatch !== undefined) throw headerMismatch(mismatch)
  }

  async function run(
    request: RpcRequest,
    io: ModernIo,
  ): Promise<{ result: Record<string, unknown>; status: number }> {
    const admitted = admit(request, io)
    const { params, meta, capabilities } = admitted
    const principal = principalOf(io.authInfo)
    if (request.method === 'server/discover') return { result: discover(), status: 200 }
    if (request.method === 'subscriptions/listen') {
      await listen(
        request.id,
        params,
        changes,
        io,
        closing.signal,
        (uri) => registry.watchResource(uri),
        (taskIds) => followTasks(tasks, taskIds, capabilities, principal),
        (uri) => registry.followable(uri, { authInfo: io.authInfo }),
      )
      return { result: complete({ _meta: { [metaKeys.subscriptionId]: request.id } }), status: 200 }
    }
    if (taskMethods.has(request.method)) {
      const result = await answerTaskMethod(tasks, request.method, params, capabilities, principal)
      return { result: complete(result), status: 200 }
    }
    const method = methods.get(request.method) as MethodHandler
    const token = meta.progressToken
    const mrtr = inputRequiredMethods.has(request.method)
    const target = String(params.name ?? params.uri ?? '')
    const binding = mrtr ? stateBinding(request.method, target, params.arguments, principal) : ''
    const carried = mrtr ? await answersOf(params, binding, stateCodec) : { answers: {} }
    const channel = new ModernInputChannel(carried.answers, capabilities, carried.roundState)
    // The bound of running tasks, per OAuth principal (the callers of a static `token`, whose token no
    // issuer vouches for, are one client: only the server's bound applies to them).
    const refusal = () => tasks.refusal(io.authInfo?.extra?.issuer === undefined ? undefined : principal)
    const plan =
      request.method === 'tools/call'
        ? planToolCall(registry.tools.get(String(params.name)), capabilities, tasks.afterMs, refusal)
        : 'request'
    const init: RequestContextInit = {
      signal: io.signal,
      requestId: request.id,
      authInfo: io.authInfo,
      clientInfo: admitted.clientInfo,
      clientCapabilities: capabilities,
      protocolVersion: admitted.version,
      traceContext: traceContextOf(meta, io.header),
      progressToken: typeof token === 'string' || typeof token === 'number' ? token : undefined,
      notify: (notification, notificationParams) =>
        io.notify({ jsonrpc: '2.0', method: notification, params: notificationParams }),
      logLevel: admitted.logLevel,
      input: channel,
      missingCapabilities: missingCapabilityError,
    }
    try {
      if (plan !== 'request') {
        const outcome = await callAsTask({
          manager: tasks,
          plan,
          init,
          method: request.method,
          name: String(params.name),
          principal,
          refusal,
          run: (context) => method(params, context) as Promise<Record<string, unknown>>,
        })
        if ('created' in outcome) return { result: { ...outcome.created, _meta: serverMeta }, status: 200 }
        return { result: complete(outcome.result), status: 200 }
      }
      const context = new RequestContext(init)
      const result = await method(params, context)
      const list = listMethods[request.method]
      if (list !== undefined) {
        const hint = registry.cacheHint(list)
        // A list that depends on who asks may be kept by that caller only.
        const scoped = registry.listView(context) === undefined ? hint : { ...hint, scope: 'private' }
        return { result: complete(result, scoped), status: 200 }
      }
      if (request.method === 'resources/read') {
        return { result: complete(result, readHint(String(params.uri))), status: 200 }
      }
      return { result: complete(result), status: 200 }
    } catch (error) {
      if (mrtr && isInputRequired(error)) {
        return { result: await inputRequiredResult(error, channel, binding, stateCodec), status: 200 }
      }
      throw error
    }
  }

  return {
    async handle(request, io) {
      try {
        const { result, status } = await run(request, io)
        return { response: { jsonrpc: '2.0', id: request.id, result }, httpStatus: status }
      } catch (error) {
        const failure = failureOf(error, 'modern', report)
        return { response: errorResponse(request.id, failure), httpStatus: failure.httpStatus }
      }
    },
    close(graceMs = 0) {
      closing.abort()
      return tasks.close(graceMs)
    },
  }
}
