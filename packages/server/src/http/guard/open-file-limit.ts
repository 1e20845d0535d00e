// The process's open-file limit, read where Linux shows it (/proc/self/limits), and the
// connection cap derived from it: a server that accepts sockets up to the limit has no file
// left for anything else (its own files, upstream servers' pipes and sockets), and then every
// client's requests fail, not just the newest one's.

import { readFileSync } from 'node:fs'

/** The soft "Max open files" of a /proc/<pid>/limits text; undefined when absent or unlimited. */
export function parseOpenFileLimit(limitsText: string): number | undefined {
  const line = limitsText.split('\n').find((candidate) => candidate.startsWith('Max open files'))
  const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0]
  if (soft === undefined || !/^\d+$/.test(soft)) return undefined
  return Number(soft)
}

/** This process's soft open-file limit, when the platform tells it (Linux); undefined otherwise. */
export function readOpenFileLimit(
  read: () => string = () => readFileSync('/proc/self/limits', 'utf8'),
): number | undefined {
  try {
    return parseOpenFileLimit(read())
  } catch {
    return undefined
  }
}

/**
 * The default connection cap for an open-file limit: a quarter of the files (at least 64) stay
 * free for everything but client connections. 0 (no cap) when the limit is unknown.
 */
export function connectionCapFor(openFileLimit: number | undefined): number {
  if (openFileLimit === undefined) return 0
  const headroom = Math.max(64, Math.ceil(openFileLimit / 4))
  return Math.max(1, openFileLimit - headroom)
}
