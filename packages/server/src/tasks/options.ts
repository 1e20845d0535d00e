// What a server's tasks may do and how long they are kept: the options of TaskManager.

import type { TaskStore } from './store.js'

export interface TaskOptions {
  /** Where task records live (default: in this process's memory). */
  store?: TaskStore | undefined
  /** How long a finished task and its result stay readable after it ends, in ms (default 1 hour). */
  keepMs?: number | undefined
  /** The polling interval suggested to clients, in ms (default 1000). */
  pollIntervalMs?: number | undefined
  /** How long an instance vouches for a running task between renewals, in ms (default 30 000). */
  leaseMs?: number | undefined
  /** This instance's name in task records (default: a random id). */
  instanceId?: string | undefined
  /**
   * Lend task support to tools that do not declare `taskSupport`: their calls that run longer
   * than this many ms become tasks, for clients that declared the extension (default: none).
   */
  afterMs?: number | undefined
  /**
   * The most tasks running in this instance at once (default 1000), and for one OAuth principal
   * (a user or a client acting for itself, auth/principal.ts; default a quarter of that). A task
   * outlives its request, so without a bound one client could start work without end over a few
   * connections. Past it, a tool whose tasks are
   * optional answers in the request (bounded by connections); one that requires them is refused.
   */
  maxRunning?: number | undefined
  maxRunningPerPrincipal?: number | undefined
}
