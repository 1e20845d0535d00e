// An upstream's lists, and keeping them fresh: list changes it announces (2026: a
// subscriptions/listen stream; 2025: notifications) and the `ttlMs` cache hint of a 2026 tools
// list make the gateway list again. One follower per upstream session; stopping it ends both.

import type { Session } from '@mcp-kit/client'
import { isRecord } from '@mcp-kit/core'
import type { Discovery } from '../types.js'

/** The shortest time between two listings of one upstream after changes. */
const relistGapMs = 100

/** How long a listing waits for resource templates (some servers never answer a method they lack). */
const templatesTimeoutMs = 5_000

/**
 * Resources, templates and prompts the upstream answered with an error (many hand-written servers
 * declare resources and answer templates/list with an error of some code) are an empty list: its
 * tools still work. A broken connection or a cancelled listing still fails the discovery.
 */
async function optionalList<T>(listing: Promise<T[]>): Promise<T[]> {
  try {
    return await listing
  } catch (error) {
    const failure = error as { code?: unknown; details?: { rpcCode?: unknown } }
    const answered = typeof failure.details?.rpcCode === 'number'
    if (answered || failure.code === 'protocol_error' || failure.code === 'timeout') return []
    throw error
  }
}

/** Everything a session offers, as far as it declares it (tools, resources, templates, prompts). */
export async function listEverything(session: Session): Promise<Discovery> {
  const capabilities = session.capabilities
  session.invalidateTools()
  const [tools, resources, resourceTemplates, prompts] = await Promise.all([
    capabilities.tools ? session.listTools() : [],
    capabilities.resources ? optionalList(session.listResources()) : [],
    capabilities.resources
      ? optionalList(session.listResourceTemplates({ timeoutMs: templatesTimeoutMs }))
      : [],
    capabilities.prompts ? optionalList(session.listPrompts()) : [],
  ])
  return { tools, resources, resourceTemplates, prompts, listedAt: Date.now() } as unknown as Discovery
}

export class ListFollower {
  readonly #session: Session
  readonly #discover: (session: Session) => Promise<Discovery>
  readonly #stop = new AbortController()
  #refreshTimer: NodeJS.Timeout | undefined
  /** The listing under way, if any. */
  #listing: Promise<unknown> = Promise.resolve()
  #relisting = false
  #again = false

  /** `discover` lists the session's tools, resources, templates and prompts (and publishes them). */
  constructor(session: Session, discover: (session: Session) => Promise<Discovery>) {
    this.#session = session
    this.#discover = discover
  }

  /** Aborts when the follower stops (the session is over): resource watches end with it. */
  get signal(): AbortSignal {
    return this.#stop.signal
  }

  /** Lists now (at start), then follows the upstream's announcements. */
  start(): Promise<Discovery> {
    const first = this.#list()
    this.#listing = first.catch(() => {})
    this.#watch()
    return first
  }

  stop(): void {
    this.#stop.abort()
    clearTimeout(this.#refreshTimer)
  }

  #watch(): void {
    const session = this.#session
    const lists = session.capabilities
    const listens = Boolean(
      (isRecord(lists.tools) && lists.tools.listChanged) ||
        (isRecord(lists.prompts) && lists.prompts.listChanged) ||
        (isRecord(lists.resources) && lists.resources.listChanged),
    )
    if (!listens) return
    void session
      .watch(
        (notification) => {
          if (notification.method.endsWith('/list_changed')) {
            if (notification.method === 'notifications/tools/list_changed') session.invalidateTools()
            this.#relist()
          }
        },
        { signal: this.#stop.signal },
      )
      .catch(() => {})
  }

  async #list(): Promise<Discovery> {
    const discovery = await this.#discover(this.#session)
    this.#scheduleHintRefresh()
    return discovery
  }

  /**
   * Lists again after a change. One listing at a time, each after the one before (an older
   * answer never replaces a newer one), at most one every relistGapMs: changes that come
   * meanwhile are taken by one more listing. An upstream announcing changes in a loop costs a few
   * listings a second, not one per notification (it was 5,000 a second, the gateway busy).
   */
  #relist(): void {
    if (this.#relisting) {
      this.#again = true
      return
    }
    this.#relisting = true
    this.#again = false
    const began = Date.now()
    this.#listing = this.#listing
      .then(() => (this.#stop.signal.aborted ? undefined : this.#list()))
      .catch(() => {})
      .finally(() => {
        const timer = setTimeout(
          () => {
            this.#relisting = false
            if (this.#again && !this.#stop.signal.aborted) this.#relist()
          },
          Math.max(0, relistGapMs - (Date.now() - began)),
        )
        timer.unref()
      })
  }

  /** A 2026 upstream's `ttlMs` on its tools list: list again when it runs out (while running). */
  #scheduleHintRefresh(): void {
    clearTimeout(this.#refreshTimer)
    if (this.#stop.signal.aborted) return
    const hint = this.#session.cacheHints.get('tools/list')
    if (hint === undefined || hint.ttlMs <= 0 || !Number.isFinite(hint.ttlMs)) return
    this.#refreshTimer = setTimeout(() => this.#relist(), Math.max(1000, hint.ttlMs))
    this.#refreshTimer.unref()
  }
}
