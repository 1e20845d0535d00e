// The processes a stdio server started, wherever they went: followed while they run (Linux) and
// remembered by pid and start time, so they can be ended on shutdown even after their parent is gone.

import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { hasProc, isDead, type ProcessStat, processTable, readProcessStat } from './process-group.js'

export interface TreeMember {
  pid: number
  startTime: string
  /** It leads a session of its own: members of that session are part of the tree. */
  leader: boolean
}

export interface ProcessTree {
  readonly root: TreeMember
  /** True once a descendant has been seen. */
  readonly branched: boolean
  /** Looks for descendants running now and remembers them; returns the ones not seen before. */
  scan(): TreeMember[]
  /** Pids of the tree that run now (see treeMembers). */
  running(): number[]
}

// Children by thread (Linux 3.5+, CONFIG_PROC_CHILDREN): a few small reads instead of all of /proc.
const childrenFiles = hasProc && existsSync(`/proc/self/task/${process.pid}/children`)

function childrenOf(pid: number): number[] {
  const children: number[] = []
  let tasks: string[]
  try {
    tasks = readdirSync(`/proc/${pid}/task`)
  } catch {
    return children
  }
  for (const task of tasks) {
    try {
      for (const word of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ')) {
        if (word !== '' && word !== '\n') children.push(Number(word))
      }
    } catch {
      // The thread ended meanwhile; its children moved to another thread, read below or next scan.
    }
  }
  return children
}

/** Sessions that are never followed: none (0), init's, and this process's own (the user's terminal). */
function forbiddenSessions(): Set<number> {
  return new Set([0, 1, readProcessStat(process.pid)?.session ?? 0])
}

/**
 * The processes of a tree that run now, from what was remembered. A remembered pid counts while its
 * start time matches; from there its descendants (by parent pid) and the members of their sessions
 * count too, because the root was started in a session of its own and nothing outside the tree can
 * join a session of the tree. A remembered session leader that is gone may leave members behind:
 * they count (the kernel does not hand out a pid while it still names a session).
 */
export function treeMembers(
  remembered: Iterable<TreeMember>,
  table: ReadonlyMap<number, ProcessStat>,
): Set<number> {
  const forbidden = forbiddenSessions()
  const members = new Set<number>()
  const sessions = new Set<number>()
  const addSession = (session: number) => {
    if (!forbidden.has(session)) sessions.add(session)
  }
  for (const { pid, startTime, leader } of remembered) {
    const stat = table.get(pid)
    if (stat === undefined) {
      if (leader) addSession(pid)
    } else if (stat.startTime === startTime) {
      if (isDead(stat)) addSession(pid)
      else {
        members.add(pid)
        addSession(stat.session)
      }
    }
  }
  for (let changed = true; changed; ) {
    changed = false
    for (const [pid, stat] of table) {
      if (members.has(pid) || isDead(stat)) continue
      if (members.has(stat.parent) || sessions.has(stat.session)) {
        members.add(pid)
        addSession(stat.session)
        changed = true
      }
    }
  }
  members.delete(process.pid)
  members.delete(1)
  return members
}

/**
 * A process group is not enough: `setsid` (what `spawn(…, { detached: true })` does) moves a
 * descendant out of the server's group and session, and a wrapper that exits orphans its children,
 * cutting the parent links. So every descendant seen is remembered by pid and start time (pids are
 * reused; the pair names one process). The watchdog applies the same rules (treeMembers), in sh.
 *
 * Starts following the tree of `root`, a process started in a session of its own. Undefined
 * without /proc, or when `root` is gone or does not lead its session (then sessions prove nothing).
 * `childrenFiles: false` looks through all of /proc instead (kernels without those files; tests).
 */
export function trackProcessTree(
  root: number,
  options: { childrenFiles?: boolean } = {},
): ProcessTree | undefined {
  const useChildrenFiles = options.childrenFiles ?? childrenFiles
  if (!hasProc) return undefined
  const stat = readProcessStat(root)
  if (!stat || stat.session !== root) return undefined
  const rootMember: TreeMember = { pid: root, startTime: stat.startTime, leader: true }
  const known = new Map<number, TreeMember>([[root, rootMember]])
  let branched = false

  const remember = (pid: number, found: TreeMember[]): boolean => {
    const stat = readProcessStat(pid)
    if (!stat || isDead(stat) || known.get(pid)?.startTime === stat.startTime) return false
    const member = { pid, startTime: stat.startTime, leader: stat.session === pid }
    known.set(pid, member)
    found.push(member)
    branched = true
    return true
  }
  const alive = (member: TreeMember): boolean => {
    const stat = readProcessStat(member.pid)
    return stat !== undefined && !isDead(stat) && stat.startTime === member.startTime
  }

  return {
    root: rootMember,
    get branched() {
      return branched
    },
    scan() {
      const found: TreeMember[] = []
      const live = [...known.values()].filter(alive)
      // Forget the dead, except leaders: their sessions may outlive them.
      for (const member of known.values()) {
        if (!member.leader && !live.includes(member)) known.delete(member.pid)
      }
      if (useChildrenFiles) {
        const queue = live.map((member) => member.pid)
        for (let pid = queue.pop(); pid !== undefined; pid = queue.pop()) {
          for (const child of childrenOf(pid)) if (remember(child, found)) queue.push(child)
        }
      } else {
        const table = processTable()
        for (const pid of treeMembers(live, table)) remember(pid, found)
      }
      return found
    },
    running() {
      const table = processTable()
      const members = treeMembers(known.values(), table)
      // Remembered, so that ending one of them (which orphans its children) loses none of the rest.
      for (const pid of members) {
        const stat = table.get(pid) as ProcessStat
        if (known.get(pid)?.startTime !== stat.startTime)
          known.set(pid, { pid, startTime: stat.startTime, leader: stat.session === pid })
      }
      return [...members]
    },
  }
}

function delay(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds))
}

function signalEach(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal)
    } catch {
      // ESRCH: it ended meanwhile.
    }
  }
}

/**
 * Ends what still runs of a tree (after its root was shut down): SIGTERM, up to `graceMs` for
 * them to exit, then SIGKILL. `quick` says when there is surely nothing left, sparing the look
 * through all of /proc.
 */
export async function endTree(
  tree: ProcessTree,
  options: { graceMs: number; onDiagnostic?: (message: string) => void; quick?: () => boolean },
): Promise<void> {
  const running = () => (options.quick?.() ? [] : tree.running())
  let pids = running()
  if (pids.length === 0) return
  options.onDiagnostic?.(
    `processes the server started are still running (pids ${pids.join(', ')}); sending SIGTERM`,
  )
  signalEach(pids, 'SIGTERM')
  const deadline = Date.now() + options.graceMs
  while (pids.length > 0 && Date.now() < deadline) {
    await delay(50)
    pids = tree.running()
  }
  if (pids.length === 0) return
  options.onDiagnostic?.(`sending SIGKILL to pids ${pids.join(', ')}`)
  signalEach(pids, 'SIGKILL')
  // SIGKILL cannot be refused, but dying takes a moment: close() promises nothing is left.
  for (let tries = 0; tries < 20 && tree.running().length > 0; tries++) await delay(25)
}
