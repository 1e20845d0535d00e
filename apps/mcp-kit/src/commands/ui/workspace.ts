// The workspace of `mcp-kit ui`: several servers connected at once, each its own session, one
// timeline and one board of questions for all of them.

import type { ResolvedReference } from '@mcp-kit/profiles'
import type { Io } from '../../base/io.js'
import type { ConnectionArguments } from '../../session/connection-flags.js'
import { appVariables } from '../../session/reference.js'
import type { AppSandbox } from './app-sandbox.js'
import type { CollectionsPlace } from './collections.js'
import { createEventHub, type EventHub } from './events.js'
import { createQuestionBoard, type QuestionBoard } from './questions.js'
import { ServerEntry, type ServerSource } from './server-entry.js'
import { createTimeline, type Timeline } from './timeline.js'

export interface Workspace {
  readonly hub: EventHub
  readonly timeline: Timeline
  readonly questions: QuestionBoard
  readonly args: ConnectionArguments
  readonly running: Map<string, AbortController>
  /** Whether this workspace opens browsers (a login's page): not with --no-open. */
  readonly openBrowser: boolean
  /** Where the page's collection files are listed, saved and run from (`--collections`). */
  readonly collections: CollectionsPlace
  /** Where MCP App views run: another origin (set once `mcp-kit ui` listens). */
  sandbox?: AppSandbox | undefined
  servers(): ServerEntry[]
  get(id: string): ServerEntry | undefined
  /** Adds a server and starts connecting it (the promise settles when it is connected or failed). */
  add(source: ServerSource): { entry: ServerEntry; connected: Promise<void> }
  remove(id: string): Promise<boolean>
  /**
   * Settles once the servers being connected now are connected or failed (at most `maxMs`): work
   * the page can wait for (listing collection files) then leaves the CPU to their start-up.
   */
  settled(maxMs: number): Promise<void>
  /** Adds every server of a client config (Claude Desktop, VS Code, Cursor…) given as text. */
  importConfig(
    text: string,
  ): Promise<{ added: ServerEntry[]; skipped: Array<{ name: string; reason: string }> }>
  close(): Promise<void>
}

export function createWorkspace(
  io: Pick<Io, 'env' | 'cwd' | 'signal'>,
  args: ConnectionArguments,
  openBrowser = false,
  collectionsDirectory = io.cwd,
): Workspace {
  const hub = createEventHub()
  const timeline = createTimeline(hub)
  const questions = createQuestionBoard(hub, io.cwd, args.root ?? [])
  const entries = new Map<string, ServerEntry>()
  const running = new Map<string, AbortController>()
  const connecting = new Set<Promise<void>>()
  let next = 1
  const context = { io, args, hub, timeline, questions }

  const workspace: Workspace = {
    hub,
    timeline,
    questions,
    args,
    running,
    openBrowser,
    collections: { directory: collectionsDirectory, io, args },
    servers: () => [...entries.values()],
    get: (id) => entries.get(id),
    add(source) {
      const entry = new ServerEntry(`s${next++}`, source, context)
      entries.set(entry.id, entry)
      const connected = entry.connect()
      connecting.add(connected)
      const done = () => void connecting.delete(connected)
      connected.then(done, done)
      return { entry, connected }
    },
    async settled(maxMs) {
      let timer: NodeJS.Timeout | undefined
      await Promise.race([
        Promise.allSettled([...connecting]),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, maxMs))),
      ])
      clearTimeout(timer)
    },
    async remove(id) {
      const entry = entries.get(id)
      if (entry === undefined) return false
      entries.delete(id)
      await entry.close(false)
      hub.publish({ type: 'server-removed', id })
      return true
    },
    async importConfig(text) {
      const { parseClientConfig } = await import('@mcp-kit/profiles')
      const { serverFromMeta, substituteValue, translateConfigVariables } = await import(
        '@mcp-kit/profiles/internal'
      )
      const file = 'the imported config'
      const config = parseClientConfig(text, file, { cwd: io.cwd })
      const added = config.servers.map((server) => {
        const resolve = async (): Promise<ResolvedReference> => {
          const translated = translateConfigVariables(server.meta, { workspaceFolder: io.cwd })
          const variables = { ...(io.env as Record<string, string>), ...appVariables() }
          const meta = substituteValue(translated.meta, variables, file)
          return {
            reference: { type: 'command', server: serverFromMeta(meta, file) },
            server: serverFromMeta(meta, file),
            operation: { kind: 'inspect' },
          } as unknown as ResolvedReference
        }
        return workspace.add({ name: server.name, resolve }).entry
      })
      return { added, skipped: config.skipped.map(({ name, reason }) => ({ name, reason })) }
    },
    async close() {
      for (const controller of running.values()) controller.abort()
      // One after another: with --record, each server's calls are added to the same file as it closes.
      for (const entry of entries.values()) await entry.close(false)
      await workspace.sandbox?.close()
      hub.close()
    },
  }
  return workspace
}
