// A lock for one file's read-modify-write by several processes (two `mcp-kit profile secret set`
// at once): a lock file created exclusively (O_EXCL) that names its owner (pid, host, a token).
// A lock whose owner on this host is gone (killed mid-write), or that is older than any write
// takes, is left over and broken; a waiter gives up after a while rather than hang.

import { randomBytes } from 'node:crypto'
import { open, readFile, stat, unlink } from 'node:fs/promises'
import { hostname } from 'node:os'

export interface LockOptions {
  /** A lock older than this is left over (default 30 s; a write takes milliseconds). */
  staleMs?: number
  /** How long to wait for another owner before giving up (default 10 s). */
  waitMs?: number
}

interface Owner {
  pid: number
  host: string
  token: string
  at: number
}

/** Thrown when another live process keeps holding the lock. */
export class LockBusyError extends Error {
  override readonly name = 'LockBusyError'
}

function parseOwner(text: string): Owner | undefined {
  try {
    const value = JSON.parse(text) as Partial<Owner>
    return typeof value.pid === 'number' && typeof value.at === 'number' && typeof value.token === 'string'
      ? (value as Owner)
      : undefined
  } catch {
    return undefined
  }
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Removes the lock at `path` if it is left over; true when it did (or the lock is gone). */
async function breakIfStale(path: string, staleMs: number): Promise<boolean> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch {
    return true
  }
  const owner = parseOwner(text)
  let stale: boolean
  if (owner === undefined) {
    // Created but not written yet, or written by something else: only its age tells.
    try {
      stale = Date.now() - (await stat(path)).mtimeMs > staleMs
    } catch {
      return true
    }
  } else {
    stale = (owner.host === hostname() && !running(owner.pid)) || Date.now() - owner.at > staleMs
  }
  if (!stale) return false
  // Only the lock judged stale: another waiter may have broken it and taken a new one meanwhile.
  try {
    if ((await readFile(path, 'utf8')) !== text) return false
    await unlink(path)
  } catch {
    // Gone meanwhile.
  }
  return true
}

/** Takes the lock at `path`; resolves with its release. */
export async function acquireLock(path: string, options: LockOptions = {}): Promise<() => Promise<void>> {
  const staleMs = options.staleMs ?? 30_000
  const waitMs = options.waitMs ?? 10_000
  const token = randomBytes(8).toString('hex')
  const started = Date.now()
  for (;;) {
    const owner: Owner = { pid: process.pid, host: hostname(), token, at: Date.now() }
    let created = false
    try {
      const handle = await open(path, 'wx', 0o600)
      created = true
      try {
        await handle.writeFile(JSON.stringify(owner))
      } finally {
        await handle.close()
      }
      return () => release(path, token)
    } catch (error) {
      if (created) {
        await unlink(path).catch(() => {})
        throw error
      }
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    if (await breakIfStale(path, staleMs)) continue
    if (Date.now() - started > waitMs) {
      throw new LockBusyError(`another process has held ${path} for over ${Math.round(waitMs / 1000)} s`)
    }
    await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20))
  }
}

/** Removes the lock if it is still ours (a lock broken as stale may be another's by now). */
async function release(path: string, token: string): Promise<void> {
  try {
    if (parseOwner(await readFile(path, 'utf8'))?.token === token) await unlink(path)
  } catch {
    // Already gone.
  }
}
