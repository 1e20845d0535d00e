// What a tool definition holds: as `registry.tool()` takes it (schemas as JSON Schema literals or
// validators, the handler typed from them) and as the registry keeps it (JSON Schema).

import type { CallToolResult, Icon, ToolAnnotations } from '@modelcontextprotocol/server'
import type { HandlerContext } from '../context.js'
import type { CheckedToolSchema, InferSchema, JsonSchema, ToolArguments, ToolSchema } from './schema-types.js'

/** Whether a tool's calls may run as tasks (see ToolDefinition.taskSupport). */
export type TaskSupport = 'forbidden' | 'optional' | 'required'

/** What a tool handler may return: a full result, a string (one text item) or a value (JSON text + structuredContent for objects). */
export type ToolOutput =
  | CallToolResult
  | string
  | Record<string, unknown>
  | unknown[]
  | number
  | boolean
  | null
  | undefined

/** What a tool is besides its schemas and handler. */
export interface ToolCommon {
  /** 1–128 letters, digits, `_`, `-` or `.` (MCP 2025-11-25). */
  name: string
  title?: string | undefined
  description?: string | undefined
  annotations?: ToolAnnotations | undefined
  icons?: Icon[] | undefined
  _meta?: Record<string, unknown> | undefined
  /**
   * OAuth scopes a caller's token must carry to call this tool, when the server checks tokens
   * (`auth` of startHttpServer, `oauth` of createHttpHandler): without them the call is answered
   * 403 `insufficient_scope`, naming them.
   */
  scopes?: readonly string[] | undefined
  /**
   * Leave checking to someone else (a gateway's upstream): the schemas are passed on as they
   * are, without compiling them, and neither arguments nor results are validated here.
   */
  passthrough?: boolean | undefined
  /**
   * Whether a call may run as a task (the io.modelcontextprotocol/tasks extension of 2026-07-28,
   * SEP-2663; the values are the spec's `taskSupport`). `forbidden` (the default): always answered
   * in the request. `optional`: a client that declared the extension gets a task handle and follows
   * the task (`tasks/get`); other clients get the result in the request. `required`: only as a
   * task; 2026-07-28 clients without the extension get -32021 (2025-11-25 sessions, which have no
   * such extension, are answered in the request). The handler does not change either way.
   */
  taskSupport?: TaskSupport | undefined
  /**
   * When a task-supporting call becomes a task: `call` (the default) at once, before the handler
   * runs; `handler` when the handler calls `context.startTask()`, so that questions it asks before
   * are answered in the request (input_required rounds) and the task starts with what it learnt;
   * a number of milliseconds: when the call is still running after that long, so that fast calls
   * answer in the request (the spec's immediate-result shortcut). A call that ends before it
   * became a task answers in the request.
   */
  taskStart?: 'call' | 'handler' | number | undefined
}

/** A tool as the registry holds it: its schemas are JSON Schema, its handler takes `Args`. */
export interface ToolDefinition<Args = Record<string, unknown>> extends ToolCommon {
  /** JSON Schema of the arguments, `type: "object"`; default: an object with any properties. Passed to clients verbatim. */
  inputSchema?: JsonSchema | undefined
  /** JSON Schema of `structuredContent`, `type: "object"`; results are checked against it. */
  outputSchema?: JsonSchema | undefined
  /** Called with arguments that passed the inputSchema. A thrown error becomes an `isError` result. */
  handler(args: Args, context: HandlerContext): ToolOutput | Promise<ToolOutput>
}

/**
 * What a handler of a tool with this `outputSchema` returns: the structured value itself (sent as
 * JSON text and `structuredContent`), a full result carrying it, or an error result. Without a
 * schema that says more, any `ToolOutput`.
 */
export type ToolResult<S> = [S] extends [never]
  ? ToolOutput
  : [ToolSchema] extends [S]
    ? ToolOutput
    :
        | InferSchema<S>
        | (CallToolResult & { structuredContent: InferSchema<S> })
        | (CallToolResult & { isError: true })

/**
 * A tool as `registry.tool()` takes it: each schema a JSON Schema literal or a Standard Schema
 * validator, and the handler typed from them (`Args` instead, when given).
 */
export interface TypedToolDefinition<
  Input extends ToolSchema = ToolSchema,
  Output extends ToolSchema = ToolSchema,
  Args = ToolArguments<Input>,
> extends ToolCommon {
  /**
   * The arguments, `type: "object"`: a JSON Schema (passed to clients verbatim) or a validator
   * (its JSON Schema is what clients see; it runs after the JSON Schema check, and its output is
   * what the handler gets). Default: an object with any properties.
   */
  inputSchema?: (Input & CheckedToolSchema<Input>) | undefined
  /** `structuredContent`, `type: "object"`, as JSON Schema or a validator; results are checked against it. */
  outputSchema?: (Output & CheckedToolSchema<Output>) | undefined
  /** Called with arguments that passed the inputSchema. A thrown error becomes an `isError` result. */
  handler(
    args: NoInfer<Args>,
    context: HandlerContext,
  ): ToolResult<NoInfer<Output>> | Promise<ToolResult<NoInfer<Output>>>
}
