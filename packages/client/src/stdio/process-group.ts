// Is anything of a process group still running? kill(-pgid, 0) also counts zombies, which a PID 1 that
// does not reap keeps forever, so on Linux /proc tells the living from the dead.

import { readdirSync, readFileSync } from 'node:fs'

function procAvailable(): boolean {
  try {
    readFileSync('/proc/self/stat')
    return true
  } catch {
    return false
  }
}

/** True on Linux with /proc mounted: process trees can be read, not only signalled. */
export const hasProc = process.platform === 'linux' && procAvailable()

/** What /proc/<pid>/stat says about a process. */
export interface ProcessStat {
  /** State letter: R, S, D, T, Z (zombie), X (dead), … */
  state: string
  parent: number
  group: number
  session: number
  /** Start time in clock ticks since boot: with the pid, it names one process (pids are reused). */
  startTime: string
}

/** Parses /proc/<pid>/stat, or undefined when the process is gone (or there is no /proc). */
export function readProcessStat(pid: number): ProcessStat | undefined {
  let stat: string
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return undefined
  }
  // "pid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime
  // stime cutime cstime priority nice num_threads itrealvalue starttime ..."; comm may contain
  // spaces and parentheses, so fields are counted from the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return {
    state: fields[0] ?? '',
    parent: Number(fields[1]),
    group: Number(fields[2]),
    session: Number(fields[3]),
    startTime: fields[19] ?? '',
  }
}

/** True for a zombie or a dead entry: the process no longer runs, only its pid is held. */
export function isDead(stat: ProcessStat): boolean {
  return stat.state === 'Z' || stat.state === 'X' || stat.state === 'x'
}

/** Every process /proc shows now, by pid. */
export function processTable(): Map<number, ProcessStat> {
  const table = new Map<number, ProcessStat>()
  if (!hasProc) return table
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry)
    if (!Number.isInteger(pid)) continue
    const stat = readProcessStat(pid)
    if (stat) table.set(pid, stat)
  }
  return table
}

/** True while a process that is not a zombie exists with this pid. */
export function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  if (!hasProc) return true
  const stat = readProcessStat(pid)
  return stat !== undefined && !isDead(stat)
}

/** True while a process that is not a zombie exists in the process group `group`. */
export function groupRunning(group: number): boolean {
  try {
    process.kill(-group, 0)
  } catch {
    return false
  }
  if (!hasProc) return true
  for (const stat of processTable().values()) {
    if (stat.group === group && !isDead(stat)) return true
  }
  return false
}
