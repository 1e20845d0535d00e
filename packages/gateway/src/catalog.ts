// The gateway's catalog: each upstream's discovered tools, resources, resource templates and
// prompts, filtered and namespaced, placed in one registry whose handlers relay to the upstream.
// Placing an upstream again (after list_changed, a cache hint running out or a restart) replaces
// what it offered before, with one list_changed per list. Names taken by another upstream are a
// collision: refused at start (`strict`), skipped with a reason afterwards. Under a profile's
// drift policy a changed tool is reported, or hidden (`error`).

import type { Tool } from '@mcp-kit/client'
import { diffTools } from '@mcp-kit/schema'
import type { ResourceOutput, ToolRegistry } from '@mcp-kit/server'
import { relay } from './forward.js'
import { wantsHops, withHop } from './hop-report.js'
import { compileFilter, defaultPrefix, namespacedName } from './naming.js'
import type { Discovery, GatewayEvent } from './types.js'
import type { Upstream } from './upstream.js'
import { cleanDiscovery } from './upstream-text.js'

interface Offered {
  tools: string[]
  resources: string[]
  resourceTemplates: string[]
  prompts: string[]
}

/** Two upstreams offer one name or URI: `start()` rejects with it, naming both. */
export class CollisionError extends Error {
  override readonly name = 'CollisionError'
}

export class Catalog {
  readonly registry: ToolRegistry
  readonly #emit: (event: GatewayEvent) => void
  readonly #offered = new Map<Upstream, Offered>()
  /** Who offers each name or URI: `tool:<name>`, `prompt:<name>`, `resource:<uri>`, `template:<t>`. */
  readonly #owners = new Map<string, Upstream>()

  constructor(registry: ToolRegistry, emit: (event: GatewayEvent) => void) {
    this.registry = registry
    this.#emit = emit
  }

  /** What an upstream offers now. */
  offered(upstream: Upstream): Offered | undefined {
    return this.#offered.get(upstream)
  }

  /** Offers an upstream's lists, replacing what it offered before. `strict`: collisions throw. */
  place(upstream: Upstream, discovery: Discovery, strict = false): void {
    const options = upstream.options
    const prefix = options.prefix ?? defaultPrefix(upstream.name)
    const toolAllowed = compileFilter(options.tools)
    const resourceAllowed = compileFilter(options.resources)
    const promptAllowed = compileFilter(options.prompts)
    const hidden = this.#drift(upstream, discovery.tools)
    // What clients see of the upstream's descriptions: without control characters.
    const lists = cleanDiscovery(discovery)
    const claim = (key: string, what: string): boolean => {
      const owner = this.#owners.get(key)
      if (owner === undefined || owner === upstream) return true
      const reason = `${what} is already offered by upstream '${owner.name}'`
      if (strict) {
        throw new CollisionError(
          `upstreams '${owner.name}' and '${upstream.name}' both offer ${what}: give one a different prefix or filter it out`,
        )
      }
      this.#emit({ type: 'skipped', upstream: upstream.name, what, reason })
      return false
    }
    const next: Offered = { tools: [], resources: [], resourceTemplates: [], prompts: [] }
    const plan: Array<() => void> = []
    for (const tool of lists.tools) {
      if (!toolAllowed(tool.name) || hidden.has(tool.name)) continue
      const name = namespacedName(prefix, tool.name)
      if (!claim(`tool:${name}`, `tool '${name}'`)) continue
      next.tools.push(name)
      plan.push(() => this.#addTool(upstream, name, tool))
    }
    for (const resource of lists.resources) {
      if (!resourceAllowed(resource.uri)) continue
      if (!claim(`resource:${resource.uri}`, `resource '${resource.uri}'`)) continue
      next.resources.push(resource.uri)
      plan.push(() => this.#addResource(upstream, resource))
    }
    for (const template of lists.resourceTemplates) {
      if (!resourceAllowed(template.uriTemplate)) continue
      if (!claim(`template:${template.uriTemplate}`, `resource template '${template.uriTemplate}'`)) continue
      next.resourceTemplates.push(template.uriTemplate)
      plan.push(() => this.#addTemplate(upstream, template))
    }
    for (const prompt of lists.prompts) {
      if (!promptAllowed(prompt.name)) continue
      const name = namespacedName(prefix, prompt.name)
      if (!claim(`prompt:${name}`, `prompt '${name}'`)) continue
      next.prompts.push(name)
      plan.push(() => this.#addPrompt(upstream, name, prompt))
    }
    this.registry.batch(() => {
      this.#withdraw(upstream)
      for (const add of plan) add()
    })
    for (const name of next.tools) this.#owners.set(`tool:${name}`, upstream)
    for (const uri of next.resources) this.#owners.set(`resource:${uri}`, upstream)
    for (const template of next.resourceTemplates) this.#owners.set(`template:${template}`, upstream)
    for (const name of next.prompts) this.#owners.set(`prompt:${name}`, upstream)
    this.#offered.set(upstream, next)
    this.#emit({
      type: 'refreshed',
      upstream: upstream.name,
      tools: next.tools.length,
      resources: next.resources.length + next.resourceTemplates.length,
      prompts: next.prompts.length,
    })
  }

  /** Takes back everything an upstream offers (without announcing it: callers batch). */
  #withdraw(upstream: Upstream): void {
    const offered = this.#offered.get(upstream)
    if (offered === undefined) return
    for (const name of offered.tools)
      this.#release(`tool:${name}`, upstream, () => this.registry.removeTool(name))
    for (const uri of offered.resources)
      this.#release(`resource:${uri}`, upstream, () => this.registry.removeResource(uri))
    for (const template of offered.resourceTemplates)
      this.#release(`template:${template}`, upstream, () => this.registry.removeResourceTemplate(template))
    for (const name of offered.prompts)
      this.#release(`prompt:${name}`, upstream, () => this.registry.removePrompt(name))
    this.#offered.delete(upstream)
  }

  #release(key: string, upstream: Upstream, remove: () => void): void {
    if (this.#owners.get(key) !== upstream) return
    this.#owners.delete(key)
    remove()
  }

  /** Tools whose schema changed against the profile's record, hidden under the `error` policy. */
  #drift(upstream: Upstream, tools: readonly Tool[]): Set<string> {
    const drift = upstream.options.drift
    const hidden = new Set<string>()
    if (drift === undefined || drift.policy === 'ignore') return hidden
    for (const change of diffTools(drift.tools, tools)) {
      if (change.kind === 'tool_added') continue
      const hide = drift.policy === 'error' && change.class === 'breaking'
      if (hide) {
        hidden.add(change.tool)
        if (change.renamedTo !== undefined) hidden.add(change.renamedTo)
      }
      this.#emit({
        type: 'drift',
        upstream: upstream.name,
        tool: change.tool,
        message: change.message,
        hidden: hide,
      })
    }
    return hidden
  }

  #addTool(upstream: Upstream, name: string, tool: Tool): void {
    const original = tool.name
    this.registry.tool({
      ...tool,
      name,
      passthrough: true,
      // A tool the upstream runs as a task (2025-11-25 `execution.taskSupport`) is offered as one
      // here too: a 2026 client that follows tasks gets a handle at once, the gateway follows the
      // upstream's task, and with a shared store any instance answers `tasks/get`. Other clients
      // get the result in the request, as before (the gateway follows the upstream task either way).
      ...(runsAsTask(tool) ? { taskSupport: 'optional' as const } : {}),
      inputSchema: tool.inputSchema as Record<string, unknown>,
      outputSchema: tool.outputSchema as Record<string, unknown> | undefined,
      handler: async (args, context) => {
        const started = performance.now()
        const result = await relay(upstream, `tools/call ${original}`, args, context, (session, options) =>
          session.callTool(original, args, options),
        )
        if (!wantsHops(context)) return result
        const latencyMs = performance.now() - started
        return withHop(result, { upstream: upstream.name, method: 'tools/call', name: original, latencyMs })
      },
    })
  }

  #addResource(upstream: Upstream, resource: Discovery['resources'][number]): void {
    this.registry.resource({
      ...(resource as { uri: string; name: string }),
      read: (uri, context) => this.#read(upstream, uri, context),
      subscribe: (uri) => this.#subscribe(upstream, uri),
    })
  }

  #addTemplate(upstream: Upstream, template: Discovery['resourceTemplates'][number]): void {
    this.registry.resourceTemplate({
      ...(template as { uriTemplate: string; name: string }),
      read: (uri, _variables, context) => this.#read(upstream, uri, context),
      subscribe: (uri) => this.#subscribe(upstream, uri),
    })
  }

  #addPrompt(upstream: Upstream, name: string, prompt: Discovery['prompts'][number]): void {
    const original = prompt.name
    this.registry.prompt({
      ...(prompt as { name: string }),
      name,
      get: (args, context) =>
        relay(upstream, `prompts/get ${original}`, args, context, (session, options) =>
          session.getPrompt(original, args, options),
        ),
    })
  }

  #read(upstream: Upstream, uri: string, context: Parameters<typeof relay>[3]): Promise<ResourceOutput> {
    return relay(upstream, `resources/read ${uri}`, { uri }, context, (session, options) =>
      session.readResource(uri, options),
    )
  }

  /** A client follows a resource: follow it upstream, and pass its updates on. */
  #subscribe(upstream: Upstream, uri: string): () => void {
    let stop: (() => void) | undefined
    let stopped = false
    void upstream
      .watchResource(uri, () => this.registry.resourceUpdated(uri))
      .then((unwatch) => {
        if (stopped) unwatch()
        else stop = unwatch
      })
      .catch(() => {})
    return () => {
      stopped = true
      stop?.()
    }
  }
}

/** True when the upstream declares that the tool runs as a task (`optional` or `required`). */
function runsAsTask(tool: Tool): boolean {
  const support = (tool as { execution?: { taskSupport?: unknown } }).execution?.taskSupport
  return support === 'optional' || support === 'required'
}
