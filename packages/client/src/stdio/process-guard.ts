// Keeps a stdio server's processes from outliving the client: signals to its process group, its tree
// followed and ended once it exited, and a watchdog should this process die without cleaning up.

import type { ChildProcess } from 'node:child_process'
import { groupRunning, hasProc } from './process-group.js'
import { endTree, type ProcessTree, trackProcessTree } from './process-tree.js'
import { startWatchdog, type Watchdog } from './watchdog.js'

const isWindows = process.platform === 'win32'
// How often the server's tree is looked at while it runs, to learn descendants before their
// parent exits and orphans them (a look is a few small reads of /proc).
const treeScanMs = 250

function delay(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds))
}

export function signalGroup(child: ChildProcess | undefined, signal: NodeJS.Signals): void {
  if (!child?.pid) return
  try {
    if (isWindows) child.kill(signal)
    else process.kill(-child.pid, signal)
  } catch {
    // ESRCH: already gone.
  }
}

function groupAlive(child: ChildProcess | undefined): boolean {
  const pid = child?.pid
  return pid !== undefined && !isWindows && groupRunning(pid)
}

/** The server's tree, followed while it runs, and the watchdog told about it. */
export class ProcessGuard {
  #tree: ProcessTree | undefined
  #treeTimer: NodeJS.Timeout | undefined
  #watchdog: Watchdog | undefined

  /** Starts following the server's tree, and tells the watchdog about it (unless `watchdog` is false). */
  follow(child: ChildProcess, pid: number, graceMs: number, watchdog: boolean | undefined): void {
    this.#tree = trackProcessTree(pid)
    // Without /proc (macOS) the tree cannot be checked; the server was spawned detached, so it leads its session.
    if (!this.#tree && hasProc) return
    if (watchdog !== false) {
      this.#watchdog = startWatchdog(child, { graceMs })
      this.#watchdog?.watch({ pid, startTime: this.#tree?.root.startTime, leader: true })
    }
    if (this.#tree) {
      this.#treeTimer = setInterval(() => this.scan(), treeScanMs)
      this.#treeTimer.unref()
    }
  }

  /** Learns the descendants running now, and tells the watchdog about them. */
  scan(): void {
    if (!this.#tree) return
    for (const member of this.#tree.scan()) this.#watchdog?.watch(member)
  }

  /** Once the server is gone: ends what it left running, stops following, dismisses the watchdog. */
  async end(
    child: ChildProcess | undefined,
    graceMs: number,
    onDiagnostic: ((message: string) => void) | undefined,
  ): Promise<void> {
    await reapLeftovers(child, this.#tree, graceMs, onDiagnostic)
    clearInterval(this.#treeTimer)
    this.#tree = undefined
    // Everything it was told about is gone: the watchdog may go too.
    this.#watchdog?.dismiss()
    this.#watchdog = undefined
  }
}

/** After the server itself exited: ends what it left running, in its process group or elsewhere. */
async function reapLeftovers(
  child: ChildProcess | undefined,
  tree: ProcessTree | undefined,
  graceMs: number,
  onDiagnostic: ((message: string) => void) | undefined,
): Promise<void> {
  if (tree) {
    await endTree(tree, {
      graceMs,
      onDiagnostic,
      // A server that never started anything and whose group is gone left nothing behind.
      quick: () => !tree.branched && !groupAlive(child),
    })
    return
  }
  if (!groupAlive(child)) return
  onDiagnostic?.('processes the server started are still running; sending SIGTERM to its process group')
  signalGroup(child, 'SIGTERM')
  const deadline = Date.now() + graceMs
  while (groupAlive(child) && Date.now() < deadline) await delay(20)
  if (groupAlive(child)) signalGroup(child, 'SIGKILL')
}
