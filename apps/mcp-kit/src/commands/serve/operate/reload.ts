// Live reload of `serve` as a gateway: SIGHUP, or with `--watch` a change to the config or
// controls file, reads them again and applies them (gateway.reconfigure). A file that cannot be
// used is refused with its reason on stderr and the running config keeps serving. Reloads run
// one at a time; changes that arrive during one are read by the next.

import { createHash } from 'node:crypto'
import { readFileSync, watch } from 'node:fs'
import { basename, dirname } from 'node:path'

export interface ReloadOptions {
  /** The files whose changes reload with `watch`. */
  files: readonly string[]
  watch: boolean
  signal: AbortSignal
  reload(reason: string): Promise<void>
  /** The process to take SIGHUP from (a parameter for tests). */
  process?: Pick<NodeJS.Process, 'on' | 'off'>
}

/** Editors write a file in several steps (or replace it): wait this long for the last. */
const settleMs = 200

export function reloadOnChange(options: ReloadOptions): () => void {
  let running: Promise<void> = Promise.resolve()
  let pending: string | undefined
  const request = (reason: string) => {
    if (options.signal.aborted) return
    if (pending !== undefined) return
    pending = reason
    running = running.then(async () => {
      const why = pending as string
      pending = undefined
      await options.reload(why).catch(() => {})
    })
  }
  const host = options.process ?? process
  const onHangup = () => request('SIGHUP')
  host.on('SIGHUP', onHangup)
  // What each file held when last looked at: any change in its directory (an editor's rename, a
  // Kubernetes ConfigMap's `..data` link swapped) is followed by a look, and only a file whose
  // content differs reloads.
  const seen = new Map(options.files.map((file) => [file, contentOf(file)]))
  const changed = () =>
    options.files.filter((file) => {
      const now = contentOf(file)
      if (now === seen.get(file)) return false
      seen.set(file, now)
      return true
    })
  const watchers = options.watch
    ? [...new Set(options.files.map((file) => dirname(file)))].map((directory) => {
        let timer: NodeJS.Timeout | undefined
        // The directory, not the file: an editor that replaces the file would end a file watch.
        const watcher = watch(directory, () => {
          clearTimeout(timer)
          timer = setTimeout(() => {
            const files = changed()
            if (files.length > 0) request(`${files.map((file) => basename(file)).join(', ')} changed`)
          }, settleMs)
        })
        watcher.on('error', () => {})
        return { watcher, stop: () => clearTimeout(timer) }
      })
    : []
  return () => {
    host.off('SIGHUP', onHangup)
    for (const { watcher, stop } of watchers) {
      stop()
      watcher.close()
    }
  }
}

/** A digest of a file's content ('' when it cannot be read). */
function contentOf(file: string): string {
  try {
    return createHash('sha256').update(readFileSync(file)).digest('base64url')
  } catch {
    return ''
  }
}
