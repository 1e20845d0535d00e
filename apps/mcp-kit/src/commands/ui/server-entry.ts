// One server of the workspace: how it was given, its session through the CLI's own connect layer
// (openSession), its state and lists for the page, and its failure explained.

import type { Prompt, Resource, ResourceTemplate, Session, Tool } from '@mcp-kit/client'
import { traceServerName } from '@mcp-kit/client/internal'
import type { ResolvedReference } from '@mcp-kit/profiles'
import type { Io } from '../../base/io.js'
import { sanitizeText } from '../../output/sanitize.js'
import type { ConnectionArguments } from '../../session/connection-flags.js'
import { openSession } from '../../session/open-session.js'
import { resolveTarget } from '../../session/reference.js'
import { adoptingSpawn } from './early-server.js'
import type { EventHub } from './events.js'
import { explainFailure, type Failure } from './failure.js'
import { maskedSpec, maskText } from './mask.js'
import type { QuestionBoard } from './questions.js'
import type { Timeline } from './timeline.js'
import { uiIo } from './ui-io.js'

/** How a server was added: a reference, a command line, or an entry of an imported config. */
export interface ServerSource {
  reference?: string
  command?: string[]
  /** An imported entry: its server, worked out when connecting (a missing variable fails there). */
  resolve?: () => Promise<ResolvedReference>
  name?: string
}

export type ServerState = 'connecting' | 'connected' | 'failed' | 'closed'

export interface Lists {
  tools: Tool[]
  resources: Resource[]
  templates: ResourceTemplate[]
  prompts: Prompt[]
  /** An optional list the server failed to give: its error message. */
  errors: Record<string, string>
  /** The optional lists still being asked for (the tools are in). */
  pending?: string[]
}

export interface EntryContext {
  io: Pick<Io, 'env' | 'cwd' | 'signal'>
  args: ConnectionArguments
  hub: EventHub
  timeline: Timeline
  questions: QuestionBoard
}

const keptLines = 200

function push(lines: string[], line: string): void {
  lines.push(sanitizeText(line))
  if (lines.length > keptLines) lines.splice(0, lines.length - keptLines)
}

export class ServerEntry {
  readonly id: string
  readonly source: ServerSource
  readonly #context: EntryContext
  state: ServerState = 'connecting'
  /** The reference as given (`@demo`, `mcp+http://…`, `-- node s.js`), unmasked: never sent as is. */
  text: string
  resolved: ResolvedReference | undefined
  session: Session | undefined
  failure: Failure | undefined
  lists: Lists = { tools: [], resources: [], templates: [], prompts: [], errors: {} }
  schemaHash: string | undefined
  readonly diagnostics: string[] = []
  readonly stderr: string[] = []
  /** The latest structuredContent each tool returned, for an outputSchema mismatch to show. */
  readonly lastResults = new Map<string, unknown>()

  constructor(id: string, source: ServerSource, context: EntryContext) {
    this.id = id
    this.source = source
    this.#context = context
    this.text =
      source.reference ??
      (source.command === undefined ? (source.name ?? id) : `-- ${source.command.join(' ')}`)
  }

  get name(): string {
    if (this.source.name !== undefined) return this.source.name
    const info = this.session?.serverInfo
    return info?.title ?? info?.name ?? maskText(this.text)
  }

  /** The io the CLI functions get for this server: their messages become its diagnostics. */
  io(): Io {
    return uiIo(
      this.#context.io,
      (line) => push(this.diagnostics, line),
      (line) => push(this.diagnostics, line),
    )
  }

  /** The lists last sent to the pages with a 'server' event. */
  #sentLists: Lists | undefined

  /** Tells the pages; new lists ride along, so a page shows them without asking again. */
  #changed(): void {
    const lists = this.state === 'connected' && this.lists !== this.#sentLists ? this.lists : undefined
    if (lists !== undefined) this.#sentLists = lists
    this.#context.hub.publish({
      type: 'server',
      server: this.view(),
      ...(lists === undefined ? {} : { lists }),
    })
  }

  async connect(): Promise<void> {
    await this.close(false)
    this.state = 'connecting'
    this.failure = undefined
    this.stderr.length = 0
    this.#changed()
    const io = this.io()
    // The lists' hash needs @mcp-kit/schema: loaded once the first message is sent (the server is
    // starting then), not after it has answered.
    let schemaLoading = false
    try {
      if (this.source.resolve !== undefined) this.resolved = await this.source.resolve()
      else {
        const target = await resolveTarget(
          this.source.command === undefined
            ? { reference: this.source.reference }
            : { serverCommand: this.source.command },
          io,
        )
        this.resolved = target.resolved
        this.text = target.text
      }
      const resolved = this.resolved
      const { timeline, questions } = this.#context
      const label = this.traceName()
      this.session = await openSession(resolved, { ...this.#context.args, 'keep-alive': '0' }, io, {
        input: questions.handlerFor(this.id),
        spawn: adoptingSpawn,
        // An mcp-kit gateway then reports each call's upstream hop (the timeline shows it).
        experimentalCapabilities: { 'io.mcp-kit/upstream-hops': {} },
        onMessage: (direction, message) => {
          if (!schemaLoading) {
            schemaLoading = true
            void import('@mcp-kit/schema').catch(() => {})
          }
          timeline.record(this.id, label, direction, message)
          const result = (message as { result?: { structuredContent?: unknown } }).result
          if (direction === 'received' && result?.structuredContent !== undefined)
            this.lastResults.set('latest', result.structuredContent)
        },
        onStderr: (line) => push(this.stderr, line),
        onDiagnostic: (line) => push(this.diagnostics, line),
        onLog: (log) =>
          push(
            this.diagnostics,
            `server log (${log.level}): ${typeof log.data === 'string' ? log.data : JSON.stringify(log.data)}`,
          ),
      })
      void this.session.closed.then(() => {
        if (this.state !== 'connected') return
        this.state = 'closed'
        this.#changed()
      })
      // Connected as soon as the tools are in: the page shows them while the other lists come.
      await this.refreshLists(() => {
        this.state = 'connected'
        this.#changed()
      })
      this.state = 'connected'
    } catch (error) {
      await this.session?.close().catch(() => {})
      this.session = undefined
      this.state = 'failed'
      this.failure = explainFailure(error, this.stderr, maskText(this.text))
    }
    this.#changed()
    // The schema hash after the page has the lists: hashing costs more than listing a small server.
    if (this.state === 'connected') {
      await this.#hashLists()
      this.#changed()
    }
  }

  async #hashLists(): Promise<void> {
    const { hashTools } = await import('@mcp-kit/schema')
    const tools = this.lists.tools
    const hash = hashTools(tools)
    if (this.lists.tools === tools) this.schemaHash = hash
  }

  /**
   * The lists the page shows; optional ones that fail are empty, with their error kept. The tools
   * come first (`onTools`, with the others `pending`): a server slow to list its prompts, or one
   * that never does, still shows its tools.
   */
  async refreshLists(onTools?: () => void): Promise<void> {
    const session = this.session
    if (session === undefined) return
    const errors: Record<string, string> = {}
    const optional = async <T>(name: string, offered: unknown, list: () => Promise<T[]>): Promise<T[]> => {
      if (offered === undefined) return []
      try {
        return await list()
      } catch (error) {
        errors[name] = sanitizeText((error as Error).message)
        return []
      }
    }
    const capabilities = session.capabilities
    const listing = session.listTools()
    const others = Promise.all([
      optional('resources', capabilities.resources, () => session.listResources()),
      optional('templates', capabilities.resources, () => session.listResourceTemplates()),
      optional('prompts', capabilities.prompts, () => session.listPrompts()),
    ])
    const tools = await listing
    this.schemaHash = undefined
    const pending = [
      ...(capabilities.resources === undefined ? [] : ['resources', 'templates']),
      ...(capabilities.prompts === undefined ? [] : ['prompts']),
    ]
    if (onTools !== undefined && pending.length > 0) {
      this.lists = { tools, resources: [], templates: [], prompts: [], errors: {}, pending }
      onTools()
    }
    const [resources, templates, prompts] = await others
    this.lists = { tools, resources, templates, prompts, errors }
  }

  /** The server as traces name it: its command line or URL (describeServer). */
  traceName(): string {
    const server = this.resolved?.server
    return maskText(server === undefined ? this.text : traceServerName(server))
  }

  requireSession(): Session {
    if (this.session === undefined || this.state !== 'connected') {
      throw Object.assign(new Error(`${this.name} is not connected`), { code: 'connect_failed' })
    }
    return this.session
  }

  view(): Record<string, unknown> {
    const session = this.session
    const profile = this.resolved?.profile
    return {
      id: this.id,
      name: this.name,
      reference: maskText(this.text),
      spec: this.resolved === undefined ? undefined : maskedSpec(this.resolved.server),
      profile: profile?.location.name,
      profileHash: profile?.schemaHash,
      state: this.state,
      era: session?.era,
      protocolVersion: session?.protocolVersion,
      transport: session?.transportKind,
      serverInfo: session?.serverInfo,
      capabilities: session?.capabilities,
      instructions: session?.instructions,
      cacheHints: session === undefined ? {} : Object.fromEntries(session.cacheHints),
      schemaHash: this.schemaHash,
      counts: {
        tools: this.lists.tools.length,
        resources: this.lists.resources.length,
        templates: this.lists.templates.length,
        prompts: this.lists.prompts.length,
      },
      listErrors: this.lists.errors,
      failure: this.failure,
      diagnostics: this.diagnostics,
      stderr: this.stderr,
    }
  }

  async close(publish = true): Promise<void> {
    const session = this.session
    this.session = undefined
    if (session !== undefined) await session.close().catch(() => {})
    if (publish) {
      this.state = 'closed'
      this.#changed()
    }
  }
}
