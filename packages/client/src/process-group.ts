// Is anything of a process group still running? kill(-pgid, 0) also counts zombies, and in
// containers whose PID 1 does not reap orphans, a dead grandchild stays a zombie forever. On
// Linux, /proc tells the living from the dead; elsewhere kill(0) is the best answer there is.

import { readdirSync, readFileSync } from 'node:fs'

function procAvailable(): boolean {
  try {
    readFileSync('/proc/self/stat')
    return true
  } catch {
    return false
  }
}

const hasProc = process.platform === 'linux' && procAvailable()

/** State letter and process group of `pid` from /proc, or undefined when it is gone. */
export function procStatus(pid: number): { state: string; group: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // "pid (comm) state ppid pgrp ..."; comm may contain spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return { state: fields[0] ?? '', group: Number(fields[2]) }
  } catch {
    return undefined
  }
}

/** True while a process that is not a zombie exists with this pid. */
export function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  if (!hasProc) return true
  const status = procStatus(pid)
  return status !== undefined && status.state !== 'Z' && status.state !== 'X'
}

/** True while a process that is not a zombie exists in the process group `group`. */
export function groupRunning(group: number): boolean {
  try {
    process.kill(-group, 0)
  } catch {
    return false
  }
  if (!hasProc) return true
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry)
    if (!Number.isInteger(pid)) continue
    const status = procStatus(pid)
    if (status && status.group === group && status.state !== 'Z' && status.state !== 'X') return true
  }
  return false
}
