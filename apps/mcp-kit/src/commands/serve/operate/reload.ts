// Live reload of `serve` as a gateway: SIGHUP, or with `--watch` a change to the config or
// controls file, reads them again and applies them (gateway.reconfigure). A file that cannot be
// used is refused with its reason on stderr and the running config keeps serving. Reloads run
// one at a time; changes that arrive during one are read by the next.

import { watch } from 'node:fs'
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
  const watchers = options.watch
    ? [...new Set(options.files.map((file) => dirname(file)))].map((directory) => {
        let timer: NodeJS.Timeout | undefined
        const names = new Set(
          options.files.filter((file) => dirname(file) === directory).map((file) => basename(file)),
        )
        // The directory, not the file: an editor that replaces the file would end a file watch.
        const watcher = watch(directory, (_event, name) => {
          if (name === null || !names.has(String(name))) return
          clearTimeout(timer)
          timer = setTimeout(() => request(`${String(name)} changed`), settleMs)
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
