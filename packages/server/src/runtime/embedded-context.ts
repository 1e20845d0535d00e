// The handler context of an in-process call (Runtime.callTool and friends): progress and log
// messages go to the caller's callbacks, and so do the handler's questions (sampling,
// elicitation, roots), which fail with `unsupported` when the caller gave no callback for them.

import type { HandlerContext, InputRequest, LoggingLevel } from '../context.js'
import { ServerError } from '../errors.js'
import { RequestContext } from '../protocol/request-context.js'
import type { RuntimeCallOptions } from './types.js'

const neverAborted = new AbortController().signal

function unsupported(what: string): ServerError {
  return new ServerError('unsupported', `the client does not support ${what}`, { details: { feature: what } })
}

/** A context for an in-process call: questions go to the caller's callbacks. */
export function embeddedContext(options: RuntimeCallOptions = {}): HandlerContext {
  const answer = (request: InputRequest): Promise<unknown> => {
    switch (request.method) {
      case 'elicitation/create':
        return options.elicit ? options.elicit(request.params) : Promise.reject(unsupported('elicitation'))
      case 'sampling/createMessage':
        return options.sample ? options.sample(request.params) : Promise.reject(unsupported('sampling'))
      case 'roots/list':
        return options.listRoots ? options.listRoots() : Promise.reject(unsupported('roots'))
    }
  }
  return new RequestContext({
    signal: options.signal ?? neverAborted,
    requestId: undefined,
    sessionId: options.sessionId,
    authInfo: options.authInfo,
    logAll: true,
    notify: async (method, params) => {
      if (method === 'notifications/progress') {
        const { progress, total, message } = params as { progress: number; total?: number; message?: string }
        options.onProgress?.({ progress, total, message })
      } else if (method === 'notifications/message') {
        const { level, data, logger } = params as { level: LoggingLevel; data: unknown; logger?: string }
        options.onLog?.({ level, data, logger })
      }
    },
    progressToken: 0,
    input: {
      async ask(requests) {
        const keys = Object.keys(requests)
        const answers = await Promise.all(keys.map((key) => answer(requests[key] as InputRequest)))
        return Object.fromEntries(keys.map((key, index) => [key, answers[index]]))
      },
    },
  })
}
