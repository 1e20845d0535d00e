// Who is waiting on one upstream session, and where that session's server-to-client messages go
// when nothing says which call they belong to. A message tied to a call (its HTTP response
// stream, its `input_required` result, its progress token) reaches that call's own handlers,
// which the relay gives the client session with the call. The rest fails closed: a question
// goes to the session's only call in flight, else it is refused; a log message goes to the
// latest call when every call in flight is one principal's, else only to the gateway's events.

import type { InputHandler } from '@mcp-kit/client'

/** One call waiting on an upstream session, on behalf of one principal. */
export interface Caller {
  /** Who the call is for (`sub:<issuer>|<subject>`, `client:<issuer>|<client_id>`, `anonymous`). */
  principal: string
  input: InputHandler
  log(level: string, data: unknown, logger?: string): void
}

/** The calls in flight on one upstream session. */
export class Callers {
  readonly #calls: Caller[] = []

  get size(): number {
    return this.#calls.length
  }

  /** Adds a call; the returned function removes it. */
  enter(caller: Caller): () => void {
    this.#calls.push(caller)
    return () => {
      const at = this.#calls.lastIndexOf(caller)
      if (at !== -1) this.#calls.splice(at, 1)
    }
  }

  /**
   * The session's own question handler, for questions no call is named in. The one call in
   * flight is the only one that can have asked; with several, or none, nobody is asked.
   */
  input(upstream: string): InputHandler {
    const refuse = (what: string) =>
      new Error(
        this.#calls.length === 0
          ? `the gateway has nobody to ask for ${what} outside a call`
          : `upstream '${upstream}' asked for ${what}, and the gateway cannot tell which call it is for (${this.#calls.length} calls in flight; nothing the upstream sent names one)`,
      )
    return {
      elicit: (request, context) => {
        const caller = this.#sole()
        if (caller?.input.elicit === undefined) return Promise.reject(refuse('input'))
        return caller.input.elicit(request, context)
      },
      sample: (request, context) => {
        const caller = this.#sole()
        if (caller?.input.sample === undefined) return Promise.reject(refuse('a model completion'))
        return caller.input.sample(request, context)
      },
    }
  }

  /** A log message no call is named in: the latest call's, if all calls are one principal's. */
  log(level: string, data: unknown, logger: string | undefined, elsewhere: () => void): void {
    const latest = this.#calls.at(-1)
    if (latest === undefined || this.#calls.some((call) => call.principal !== latest.principal)) elsewhere()
    else latest.log(level, data, logger)
  }

  #sole(): Caller | undefined {
    return this.#calls.length === 1 ? this.#calls[0] : undefined
  }
}
