// The gateway's catalog: each upstream's discovered tools, resources, resource templates and
// prompts, filtered and namespaced, placed in one registry whose entries relay to the upstream
// (relayed.ts). Placing an upstream again (after list_changed, a cache hint running out or a
// restart) replaces what it offered before, with one list_changed per list. Names taken by another
// upstream are a collision: refused at start (`strict`), skipped with a reason afterwards. Resource
// URIs belong to the upstream that owns their space (uri-owners.ts): a later upstream's resource or
// template inside an earlier one's space is skipped, and every read goes to the URI's owner. Tools
// a profile's drift policy hides (drift.ts) are left out.

import type { ToolRegistry } from '@mcp-kit/server'
import type { ControlsHolder } from '../controls/call-controls.js'
import { compileFilter, defaultPrefix, namespacedName } from '../naming.js'
import type { PolicyItem } from '../policy/policy-types.js'
import type { Discovery, GatewayEvent } from '../types.js'
import { hiddenByDrift } from '../upstream/drift.js'
import type { Upstream } from '../upstream/upstream.js'
import { cleanDiscovery } from '../upstream/upstream-text.js'
import {
  addRelayedPrompt,
  addRelayedResource,
  addRelayedTemplate,
  addRelayedTool,
  type Route,
} from './relayed.js'
import { resourceSpace, templateSpace, UriOwners, type UriSpace } from './uri-owners.js'

interface Offered {
  tools: string[]
  resources: string[]
  resourceTemplates: string[]
  prompts: string[]
}

/** An upstream's cleaned lists and the tools its drift policy hides: what placing it again needs. */
interface Placed {
  lists: Discovery
  hidden: Set<string>
}

/** A name or URI an upstream may not offer, and why. */
interface Refusal {
  what: string
  reason: string
  /** Another upstream offers the very same name or URI (a collision, refused at start). */
  collidesWith?: Upstream
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
  /** Who owns which URI spaces (by the resources and templates each upstream offers). */
  readonly #uriOwners: UriOwners<Upstream>
  readonly #placed = new Map<Upstream, Placed>()
  readonly #rank: (upstream: Upstream) => number
  readonly #controls: ControlsHolder

  /** `rank`: an upstream's place in the gateway's list (config order), which decides URI ownership. */
  constructor(
    registry: ToolRegistry,
    emit: (event: GatewayEvent) => void,
    rank: (upstream: Upstream) => number,
    controls: ControlsHolder = { current: undefined },
  ) {
    this.registry = registry
    this.#controls = controls
    this.#emit = emit
    this.#rank = rank
    this.#uriOwners = new UriOwners(rank)
  }

  /** What an upstream offers now. */
  offered(upstream: Upstream): Offered | undefined {
    return this.#offered.get(upstream)
  }

  /** Takes back everything an upstream offers, for good (it left the gateway's config). */
  remove(upstream: Upstream): void {
    this.registry.batch(() => this.#withdraw(upstream))
    this.#placed.delete(upstream)
  }

  /**
   * Offers every placed upstream again, in config order (after a reload changed who is in it:
   * names and URI spaces a removed upstream held are free for the others).
   */
  replaceAll(): void {
    const placed = [...this.#placed.entries()].sort(([a], [b]) => this.#rank(a) - this.#rank(b))
    this.registry.batch(() => {
      for (const [upstream] of placed) this.#withdraw(upstream)
      for (const [upstream, lists] of placed) this.#offer(upstream, lists, false)
    })
  }

  /** What the policy sees of a registry entry: the upstream offering it, and a tool's annotations. */
  policyItem(
    list: 'tools' | 'resources' | 'resourceTemplates' | 'prompts',
    key: string,
  ): PolicyItem | undefined {
    const kind = list === 'tools' ? 'tool' : list === 'prompts' ? 'prompt' : 'resource'
    const owner = this.#owners.get(`${list === 'resourceTemplates' ? 'template' : kind}:${key}`)
    if (owner === undefined) return undefined
    const annotations = kind === 'tool' ? this.registry.tools.get(key)?.annotations : undefined
    return { kind, upstream: owner.name, name: key, annotations: annotations as PolicyItem['annotations'] }
  }

  /** Offers an upstream's lists, replacing what it offered before. `strict`: collisions throw. */
  place(upstream: Upstream, discovery: Discovery, strict = false): void {
    const hidden = hiddenByDrift(upstream, discovery.tools, this.#emit)
    // What clients see of the upstream's descriptions: without control characters.
    const placed = { lists: cleanDiscovery(discovery), hidden }
    this.#placed.set(upstream, placed)
    this.#offer(upstream, placed, strict)
    this.#reconsiderLater(upstream)
  }

  #offer(upstream: Upstream, { lists, hidden }: Placed, strict: boolean): void {
    const options = upstream.options
    const prefix = options.prefix ?? defaultPrefix(upstream.name)
    const toolAllowed = compileFilter(options.tools)
    const promptAllowed = compileFilter(options.prompts)
    const refuse = (refusal: Refusal) => {
      if (strict && refusal.collidesWith !== undefined) {
        throw new CollisionError(
          `upstreams '${refusal.collidesWith.name}' and '${upstream.name}' both offer ${refusal.what}: give one a different prefix or filter it out`,
        )
      }
      this.#emit({ type: 'skipped', upstream: upstream.name, what: refusal.what, reason: refusal.reason })
    }
    const claim = (key: string, what: string): boolean => {
      const refusal = this.#collision(upstream, key, what)
      if (refusal !== undefined) refuse(refusal)
      return refusal === undefined
    }
    const next: Offered = { tools: [], resources: [], resourceTemplates: [], prompts: [] }
    const plan: Array<() => void> = []
    for (const tool of lists.tools) {
      if (!toolAllowed(tool.name) || hidden.has(tool.name)) continue
      const name = namespacedName(prefix, tool.name)
      if (!claim(`tool:${name}`, `tool '${name}'`)) continue
      next.tools.push(name)
      plan.push(() => addRelayedTool(this.registry, upstream, name, tool, this.#controls))
    }
    const resources = this.#resourcesAllowed(upstream, lists, refuse)
    for (const resource of resources.resources) {
      next.resources.push(resource.uri)
      plan.push(() => addRelayedResource(this.registry, upstream, resource, this.#route, this.#controls))
    }
    for (const template of resources.resourceTemplates) {
      next.resourceTemplates.push(template.uriTemplate)
      plan.push(() => addRelayedTemplate(this.registry, upstream, template, this.#route, this.#controls))
    }
    for (const prompt of lists.prompts) {
      if (!promptAllowed(prompt.name)) continue
      const name = namespacedName(prefix, prompt.name)
      if (!claim(`prompt:${name}`, `prompt '${name}'`)) continue
      next.prompts.push(name)
      plan.push(() => addRelayedPrompt(this.registry, upstream, name, prompt, this.#controls))
    }
    this.registry.batch(() => {
      this.#withdraw(upstream)
      for (const add of plan) add()
    })
    for (const name of next.tools) this.#owners.set(`tool:${name}`, upstream)
    for (const uri of next.resources) this.#owners.set(`resource:${uri}`, upstream)
    for (const template of next.resourceTemplates) this.#owners.set(`template:${template}`, upstream)
    for (const name of next.prompts) this.#owners.set(`prompt:${name}`, upstream)
    this.#uriOwners.set(upstream, [
      ...next.resources.map(resourceSpace),
      ...next.resourceTemplates.map(templateSpace).filter((space) => space !== undefined),
    ])
    this.#offered.set(upstream, next)
    this.#emit({
      type: 'refreshed',
      upstream: upstream.name,
      tools: next.tools.length,
      resources: next.resources.length + next.resourceTemplates.length,
      prompts: next.prompts.length,
    })
  }

  /** The refusal of `key` when another upstream offers it already. */
  #collision(upstream: Upstream, key: string, what: string): Refusal | undefined {
    const owner = this.#owners.get(key)
    if (owner === undefined || owner === upstream) return undefined
    return { what, reason: `${what} is already offered by upstream '${owner.name}'`, collidesWith: owner }
  }

  /**
   * The resources and templates the upstream may offer now: its filter's, except those another
   * upstream offers already and those inside the URI space of an upstream before it in config order.
   */
  #resourcesAllowed(
    upstream: Upstream,
    lists: Discovery,
    refuse: (refusal: Refusal) => void,
  ): Pick<Discovery, 'resources' | 'resourceTemplates'> {
    const allowed = compileFilter(upstream.options.resources)
    const owned = (space: UriSpace | undefined, what: string): Refusal | undefined => {
      const earlier = space === undefined ? undefined : this.#uriOwners.claimedBefore(upstream, space)
      if (earlier === undefined) return undefined
      const where = earlier.space.exact ? 'its resource' : 'its URI space'
      return {
        what,
        reason: `${what} is inside ${where} '${earlier.space.prefix}' of upstream '${earlier.owner.name}', which comes first`,
      }
    }
    const check = (refusal: Refusal | undefined): boolean => {
      if (refusal !== undefined) refuse(refusal)
      return refusal === undefined
    }
    return {
      resources: lists.resources.filter((resource) => {
        if (!allowed(resource.uri)) return false
        const what = `resource '${resource.uri}'`
        return (
          check(this.#collision(upstream, `resource:${resource.uri}`, what)) &&
          check(owned(resourceSpace(resource.uri), what))
        )
      }),
      resourceTemplates: lists.resourceTemplates.filter((template) => {
        if (!allowed(template.uriTemplate)) return false
        const what = `resource template '${template.uriTemplate}'`
        return (
          check(this.#collision(upstream, `template:${template.uriTemplate}`, what)) &&
          check(owned(templateSpace(template.uriTemplate), what))
        )
      }),
    }
  }

  /**
   * After `upstream` was placed, each upstream after it in config order whose resources it may
   * offer changed (now inside `upstream`'s spaces, or free again) is placed again.
   */
  #reconsiderLater(upstream: Upstream): void {
    const later = [...this.#placed.keys()]
      .filter((other) => this.#rank(other) > this.#rank(upstream))
      .sort((a, b) => this.#rank(a) - this.#rank(b))
    for (const other of later) {
      const placed = this.#placed.get(other) as Placed
      const offered = this.#offered.get(other)
      const now = this.#resourcesAllowed(other, placed.lists, () => {})
      const same =
        offered !== undefined &&
        sameItems(
          offered.resources,
          now.resources.map((resource) => resource.uri),
        ) &&
        sameItems(
          offered.resourceTemplates,
          now.resourceTemplates.map((template) => template.uriTemplate),
        )
      if (!same) this.#offer(other, placed, false)
    }
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
    this.#uriOwners.set(upstream, [])
    this.#offered.delete(upstream)
  }

  #release(key: string, upstream: Upstream, remove: () => void): void {
    if (this.#owners.get(key) !== upstream) return
    this.#owners.delete(key)
    remove()
  }

  /**
   * Where a read or subscription of `uri` goes: its owner, whichever upstream's entry the registry
   * matched (a more specific template of a later upstream never takes it); else the match's.
   */
  readonly #route: Route = (matched, uri) => this.#uriOwners.ownerOf(uri) ?? matched
}

function sameItems(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index])
}
