// The embedded runtime's types: its options, the options of an in-process call, completions,
// the Runtime interface (implemented in runtime.ts) and the context-taking entry points the
// transports use (calls.ts).

import type {
  CallToolResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
  Tool,
} from '@modelcontextprotocol/server'
import type {
  AuthInfo,
  ElicitationRequest,
  ElicitResult,
  HandlerContext,
  ListRootsResult,
  LoggingLevel,
  SamplingRequest,
  SamplingResult,
} from '../context.js'
import type { ToolRegistry } from '../registry/registry.js'
import type { TraceEntry } from '../trace.js'

export interface RuntimeOptions {
  /** Receives one entry per tool call, resource read and prompt get. */
  onTrace?: ((entry: TraceEntry) => void) | undefined
  /** The `server` field of trace entries (default: the registry's `name`, else "mcp-kit"). */
  serverName?: string | undefined
  /** Write "[redacted]" instead of argument values in traces. */
  redactTraceArguments?: boolean | undefined
  /** Clock for the resource cache, in ms (default Date.now). */
  now?: (() => number) | undefined
}

/** How an in-process call reaches back to its caller (the wire equivalents are notifications and requests). */
export interface RuntimeCallOptions {
  signal?: AbortSignal | undefined
  onProgress?: ((progress: { progress: number; total?: number; message?: string }) => void) | undefined
  onLog?: ((message: { level: LoggingLevel; data: unknown; logger?: string }) => void) | undefined
  /** Answers the handler's sampling requests; without it `context.sample` throws `unsupported`. */
  sample?: ((request: SamplingRequest) => Promise<SamplingResult>) | undefined
  /** Answers the handler's elicitation requests; without it `context.elicit` throws `unsupported`. */
  elicit?: ((request: ElicitationRequest) => Promise<ElicitResult>) | undefined
  /** Answers the handler's roots requests; without it `context.listRoots` throws `unsupported`. */
  listRoots?: (() => Promise<ListRootsResult>) | undefined
  sessionId?: string | undefined
  authInfo?: AuthInfo | undefined
}

export type CompletionReference = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string }

export interface Completion {
  values: string[]
  total: number
  hasMore: boolean
}

export interface Runtime {
  readonly registry: ToolRegistry
  /**
   * Calls a tool. Invalid arguments, a handler that throws and output that does not match the
   * outputSchema give an `isError` result; an unknown tool throws ServerError `tool_not_found`.
   */
  callTool(
    name: string,
    args?: Record<string, unknown>,
    options?: RuntimeCallOptions,
  ): Promise<CallToolResult>
  /** Reads a resource (static or templated); throws ServerError `resource_not_found`. */
  readResource(uri: string, options?: RuntimeCallOptions): Promise<ReadResourceResult>
  /** Gets a prompt; throws ServerError `prompt_not_found` or `invalid_arguments` (a required argument is missing). */
  getPrompt(
    name: string,
    args?: Record<string, string>,
    options?: RuntimeCallOptions,
  ): Promise<GetPromptResult>
  complete(
    reference: CompletionReference,
    argument: { name: string; value: string },
    contextArguments?: Record<string, string>,
  ): Promise<Completion>
  listTools(): Tool[]
  listResources(): Resource[]
  listResourceTemplates(): ResourceTemplate[]
  listPrompts(): Prompt[]
}

/** The context-taking entry points the transports use (not public API). */
export interface RuntimeInternals {
  callTool(name: string, args: Record<string, unknown>, context: HandlerContext): Promise<CallToolResult>
  readResource(uri: string, context: HandlerContext): Promise<ReadResourceResult>
  getPrompt(name: string, args: Record<string, string>, context: HandlerContext): Promise<GetPromptResult>
}
