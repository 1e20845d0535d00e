// Who is waiting on one upstream session, and where that session's server-to-client messages go
// when nothing says which call they belong to. A message tied to a call (its HTTP response
// stream, its `input_required` result, its progress token) reaches that call's own handlers,
// which the relay gives the client with the call. The rest fails closed: on a session that
// serves every caller (a 2026-07-28 upstream's) a question is refused and a log message goes to
// the operator only; on a lane of one caller (user-sessions.ts) a question goes to the lane's
// only call in flight, and a log message to its latest call when that caller has a session.

import type { InputHandler } from '@mcp-kit/client'

/** One call waiting on an upstream session, on behalf of one caller. */
export interface Caller {
  /**
   * Who the call is for, in routing (docs/architecture.md "Isolation"): the principal
   * (`sub:<issuer>|<subject>`, `client:<issuer>|<client_id>`, `anonymous`) and, for a client
   * with a session (2025-11-25), that session.
   */
  key: string
  /** Whether the caller has a session of its own, so a log message that names no call may reach it. */
  session: boolean
  input: InputHandler
  log(level: string, data: unknown, logger?: string): void
}

/** The calls in flight on one upstream session. */
export class Callers {
  readonly #calls: Caller[] = []
  /** True for a session that serves every caller (a 2026-07-28 upstream's). */
  #shared = false
  /**
   * The callers the session has carried a call for (background work may be any of theirs): the
   * first two, which is all it takes to know whether there was only one.
   */
  readonly #carried = new Set<string>()

  get size(): number {
    return this.#calls.length
  }

  /** The session serves every caller: what names no call reaches none of them. */
  shareWithAll(): void {
    this.#shared = true
  }

  /** Adds a call; the returned function removes it. */
  enter(caller: Caller): () => void {
    this.#calls.push(caller)
    if (this.#carried.size < 2) this.#carried.add(caller.key)
    return () => {
      const at = this.#calls.lastIndexOf(caller)
      if (at !== -1) this.#calls.splice(at, 1)
    }
  }

  /**
   * The session's own question handler, for questions no call is named in. Only a session that
   * has only ever carried one caller's calls can say whose the question is, and then only with
   * one call in flight; otherwise nobody is asked.
   */
  input(upstream: string): InputHandler {
    const refuse = (what: string) => new Error(this.#whyNot(upstream, what))
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
      // The caller's own client decides: a request with tools it did not declare is refused there.
      samplingTools: true,
    }
  }

  /** A log message no call is named in: the latest call's, on a session of one caller that has a session itself. */
  log(level: string, data: unknown, logger: string | undefined, elsewhere: () => void): void {
    const latest = this.#calls.at(-1)
    if (latest === undefined || !this.#ownedBy(latest) || !latest.session) elsewhere()
    else latest.log(level, data, logger)
  }

  /** True when every call the session has carried was `caller`'s and it serves no one else. */
  #ownedBy(caller: Caller): boolean {
    return !this.#shared && this.#carried.size === 1 && this.#carried.has(caller.key)
  }

  #sole(): Caller | undefined {
    const only = this.#calls.length === 1 ? this.#calls[0] : undefined
    return only !== undefined && this.#ownedBy(only) ? only : undefined
  }

  #whyNot(upstream: string, what: string): string {
    if (this.#calls.length === 0) return `the gateway has nobody to ask for ${what} outside a call`
    const because = this.#shared
      ? 'its session serves every caller'
      : this.#carried.size > 1
        ? 'its session has served more than one caller'
        : `${this.#calls.length} calls in flight`
    return `upstream '${upstream}' asked for ${what}, and the gateway cannot tell which call it is for (${because}; nothing the upstream sent names one)`
  }
}
