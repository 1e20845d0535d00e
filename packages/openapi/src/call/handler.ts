// One tool call, start to end: the request from the arguments (refused, naming the parameter,
// when a value would change its path), credentials, headers in their order of precedence, the
// send within the API's limits, and the answer as a result. Failures to reach the API and
// refused requests are error results; every word said passes the redactor.

import type { HandlerContext, ToolOutput } from '@mcp-kit/server'
import type { OpenApiDocument } from '../document/load.js'
import type { AnswerContext } from '../http/answer.js'
import { bodyPlanOf } from '../http/body.js'
import { headersOf } from '../http/headers.js'
import { compilePath, RequestRefused } from '../http/path.js'
import type { PreparedOperation } from '../http/request.js'
import { cleanText } from '../schema/clean-text.js'
import type { ArgumentPlan } from '../tools/input-schema.js'
import type { Operation } from '../tools/operations.js'
import type { Output } from '../tools/output-schema.js'
import type { Api } from './api.js'

// What sending needs (undici, the answer check's validator) loads at the first call, not when the
// tools are made: a document of a thousand operations is listed before any is called.
let loading:
  | Promise<
      typeof import('../http/request.js') &
        typeof import('../http/send.js') &
        typeof import('../http/answer.js')
    >
  | undefined
function sendingModules() {
  loading ??= Promise.all([
    import('../http/request.js'),
    import('../http/send.js'),
    import('../http/answer.js'),
  ]).then(([request, sending, answer]) => ({ ...request, ...sending, ...answer }))
  return loading
}

/** What a call to this operation needs, worked out at load. */
export function prepareOperation(
  document: OpenApiDocument,
  operation: Operation,
  plan: ArgumentPlan,
): PreparedOperation {
  return {
    operation,
    plan,
    path: compilePath(operation.path, plan.parameters),
    body: bodyPlanOf(document, operation),
    where: `${operation.method} ${operation.path}`,
  }
}

/** The handler of an operation's tool. */
export function callHandler(api: Api, prepared: PreparedOperation, output: Output) {
  let answer: AnswerContext | undefined
  const answerContext = (): AnswerContext => {
    if (answer !== undefined) return answer
    const { schema, shape } = output.answers()
    answer = {
      where: prepared.where,
      shape,
      check: schema === undefined ? undefined : { schema, strict: api.strictResponses },
      redactor: api.redactor,
    }
    return answer
  }
  const failed = (message: string): ToolOutput => ({
    isError: true,
    content: [{ type: 'text', text: cleanText(api.redactor.text(message)) }],
  })
  return async (args: Record<string, unknown>, context: HandlerContext): Promise<ToolOutput> => {
    const { buildRequest, send, SendFailure, toToolResult } = await sendingModules()
    try {
      const request = await buildRequest(prepared, args, api.base, api.files)
      await api.authorize(request, prepared.operation.security, context.signal)
      const answered = await send(request, headersOf(request, api.headers), {
        dispatcher: api.dispatcher,
        timeoutMs: api.timeoutMs,
        maxResponseBytes: api.maxResponseBytes,
        signal: context.signal,
      })
      return toToolResult(answered, answerContext(), request.url)
    } catch (error) {
      if (error instanceof SendFailure || error instanceof RequestRefused) return failed(error.message)
      if (context.signal.aborted) throw error
      // A token endpoint's refusal and the like: said, without any secret.
      throw new Error(cleanText(api.redactor.text((error as Error)?.message ?? String(error))), {
        cause: error,
      })
    }
  }
}
