// The methods of the tasks extension (SEP-2663) for 2026-07-28 requests: `tasks/get` (the task's
// full state, its result inlined once it completed), `tasks/update` (answers to its questions; an
// empty acknowledgement) and `tasks/cancel` (an empty acknowledgement, also for a task that
// already ended). A request that did not declare the extension gets -32021; a task that does not
// exist, expired or belongs to another principal gets -32602.

import { isRecord } from '@mcp-kit/core'
import type { ClientCapabilities } from '../context.js'
import { checkNesting, requiredString } from '../protocol/params.js'
import { invalidParams } from '../protocol/rpc.js'
import type { TaskManager } from './manager.js'
import { declaresTasks, detailedTask, tasksNotDeclared } from './wire.js'

export async function answerTaskMethod(
  manager: TaskManager,
  method: string,
  params: Record<string, unknown>,
  capabilities: ClientCapabilities,
  principal: string | undefined,
): Promise<Record<string, unknown>> {
  if (!declaresTasks(capabilities)) throw tasksNotDeclared(method)
  const taskId = requiredString(params, 'taskId')
  switch (method) {
    case 'tasks/get':
      return detailedTask(await manager.find(taskId, principal), Date.now())
    case 'tasks/update': {
      const responses = params.inputResponses
      if (!isRecord(responses)) throw invalidParams("'inputResponses' must be an object")
      checkNesting(responses)
      await manager.deliver(taskId, responses, principal)
      return {}
    }
    case 'tasks/cancel':
      await manager.cancel(taskId, principal)
      return {}
    default:
      throw invalidParams(`unknown task method ${method}`)
  }
}
