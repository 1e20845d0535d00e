// The file system as profiles see it: a small interface so callers (and tests) can inject their own.

import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { acquireLock } from './file-lock.js'

export interface ProfileFileSystem {
  readFile(path: string): Promise<string>
  /** 'file', 'directory', or undefined when nothing (readable) is there. */
  kind(path: string): Promise<'file' | 'directory' | undefined>
  readdir(path: string): Promise<string[]>
  writeFile(path: string, data: string): Promise<void>
  rename(from: string, to: string): Promise<void>
  mkdir(path: string): Promise<void>
  remove(path: string): Promise<void>
  /**
   * Takes the lock file `path` (created exclusively; a left-over one is broken) and resolves with
   * its release. Optional: without it, writes to the secret store are not locked against another
   * writer.
   */
  lock?(path: string): Promise<() => Promise<void>>
}

export const nodeFileSystem: ProfileFileSystem = {
  readFile: (path) => readFile(path, 'utf8'),
  async kind(path) {
    try {
      const stats = await stat(path)
      if (stats.isDirectory()) return 'directory'
      return stats.isFile() ? 'file' : undefined
    } catch {
      return undefined
    }
  },
  async readdir(path) {
    try {
      return await readdir(path)
    } catch {
      return []
    }
  },
  writeFile: (path, data) => writeFile(path, data, { encoding: 'utf8', mode: 0o600 }),
  rename: (from, to) => rename(from, to),
  async mkdir(path) {
    await mkdir(path, { recursive: true, mode: 0o700 })
  },
  remove: (path) => rm(path, { recursive: true, force: true }),
  lock: (path) => acquireLock(path),
}
