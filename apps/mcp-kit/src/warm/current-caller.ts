// What a warm session sends outside any one command's view goes to the command using it (the
// latest, when several are): the server's questions (asked on that command's terminal, within
// its --input-timeout), sampling outside a call and its trace entry, and logins.

import {
  type Authorizer,
  ClientError,
  type ConnectOptions,
  type InputContext,
  type InputHandler,
  redactArguments,
  type Session,
  type TraceEntry,
} from '@mcp-kit/client'

/** One command using a warm session: where that session's events go while it does. */
export interface Caller {
  options: ConnectOptions
  view?: Session
  /** Aborted with the error that fails this command's calls (a question nobody answered). */
  failed: AbortController
}

/**
 * The server's questions go to the command using the session (asked on its terminal), within
 * that command's --input-timeout. An answer nobody can give, or one that does not come in time,
 * fails that command's calls only: connect() would fail every call on the connection.
 */
export function routedInput(
  current: () => Caller | undefined,
  first: InputHandler | undefined,
): InputHandler {
  const ask = async <T>(
    run: (input: InputHandler, context: InputContext) => Promise<T> | undefined,
    what: string,
    context: InputContext,
  ): Promise<T> => {
    const caller = current()
    const options = caller?.options
    const limitMs = options?.inputTimeoutMs ?? options?.callTimeoutMs ?? 60_000
    const limit = new AbortController()
    const timer =
      limitMs > 0
        ? setTimeout(
            () =>
              limit.abort(
                new ClientError(
                  'timeout',
                  `input question timed out after ${Math.round(limitMs / 100) / 10} s: the server asked for ${what} and no answer came`,
                  { details: { limit: 'input', timeoutMs: limitMs } },
                ),
              ),
            limitMs,
          )
        : undefined
    const expired = new Promise<never>((_resolve, reject) => {
      limit.signal.addEventListener('abort', () => reject(limit.signal.reason), { once: true })
    })
    try {
      const signal = AbortSignal.any([context.signal, limit.signal])
      const answer = options?.input === undefined ? undefined : run(options.input, { ...context, signal })
      if (answer === undefined) throw new Error(`no command is there to answer for ${what}`)
      return await Promise.race([answer, expired])
    } catch (error) {
      const given = ClientError.isInstance(error) && error.code === 'input_required'
      if (!given && error !== limit.signal.reason) throw error
      caller?.failed.abort(error)
      throw new Error((error as Error).message)
    } finally {
      clearTimeout(timer)
    }
  }
  const routed: InputHandler = {
    elicit: (request, context) =>
      ask((input, asked) => input.elicit?.(request, asked), 'input from the user (elicitation)', context),
    roots: (context) => ask((input, asked) => input.roots?.(asked), "the client's roots", context),
  }
  if (first?.sample !== undefined) {
    routed.sample = (request, context) =>
      ask((input, asked) => input.sample?.(request, asked), 'a model completion (sampling)', context)
    routed.samplingTools = first.samplingTools
  }
  return routed
}

/** A sampling entry of the shared session, in the trace of the command using it (as it asks). */
export function routedTrace(caller: Caller | undefined, entry: TraceEntry): void {
  const options = caller?.options
  if (options?.onTrace === undefined) return
  if (!options.redactTraceArguments) {
    options.onTrace(entry)
    return
  }
  const { answer: _answer, ...kept } = entry
  options.onTrace({ ...kept, args: redactArguments(entry.args) })
}

/**
 * Logins (OAuth) run through the command using the session: its terminal, its browser flag. A
 * command without a terminal cannot log in; a token refresh needs no login and still happens.
 */
export function routedAuthorizer(current: () => Caller | undefined): Authorizer {
  let active: Authorizer | undefined
  let hint: string | undefined
  return {
    async prepare() {
      const caller = current()
      active = caller?.options.oauth?.authorizer
      hint = caller?.options.oauth?.loginHint
      return active === undefined ? 'http://127.0.0.1/callback' : active.prepare()
    },
    async open(url) {
      await active?.open(url)
    },
    async callback() {
      if (active === undefined) {
        throw new ClientError(
          'auth_required',
          `the server needs a login, which cannot happen without a terminal${hint ? `: run '${hint}'` : ''}`,
        )
      }
      return active.callback()
    },
    async close() {
      await active?.close()
      active = undefined
    },
  }
}
