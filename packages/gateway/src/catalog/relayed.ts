// The registry entries through which clients reach an upstream: a tool or prompt relayed under its
// gateway name, and a resource or template whose reads and subscriptions go to the upstream that
// `route` picks for the URI (its owner: catalog.ts, uri-owners.ts).

import type { Tool } from '@mcp-kit/client'
import type { HandlerContext, ResourceOutput, ToolRegistry } from '@mcp-kit/server'
import { type ControlsHolder, controlledCall } from '../controls/call-controls.js'
import type { Discovery } from '../types.js'
import { relay } from '../upstream/forward.js'
import type { Upstream } from '../upstream/upstream.js'
import { wantsHops, withHop } from './hop-report.js'

/** Picks the upstream a read of `uri` goes to, given the one whose entry matched it. */
export type Route = (matched: Upstream, uri: string) => Upstream

export function addRelayedTool(
  registry: ToolRegistry,
  upstream: Upstream,
  name: string,
  tool: Tool,
  controls: ControlsHolder,
): void {
  const original = tool.name
  const item = {
    kind: 'tool' as const,
    method: 'tools/call' as const,
    upstream: upstream.name,
    name,
    original,
    annotations: tool.annotations as Readonly<Record<string, unknown>> | undefined,
  }
  registry.tool({
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
      const result = await controlledCall(controls, item, name, args, context, (trace) =>
        relay(
          upstream,
          `tools/call ${original}`,
          args,
          context,
          (session, options) => session.callTool(original, args, options),
          trace,
        ),
      )
      if (!wantsHops(context)) return result
      const latencyMs = performance.now() - started
      return withHop(result, { upstream: upstream.name, method: 'tools/call', name: original, latencyMs })
    },
  })
}

export function addRelayedPrompt(
  registry: ToolRegistry,
  upstream: Upstream,
  name: string,
  prompt: Discovery['prompts'][number],
  controls: ControlsHolder,
): void {
  const original = prompt.name
  const item = {
    kind: 'prompt' as const,
    method: 'prompts/get' as const,
    upstream: upstream.name,
    name,
    original,
  }
  registry.prompt({
    ...(prompt as { name: string }),
    name,
    get: (args, context) =>
      controlledCall(controls, item, name, args, context, (trace) =>
        relay(
          upstream,
          `prompts/get ${original}`,
          args,
          context,
          (session, options) => session.getPrompt(original, args, options),
          trace,
        ),
      ),
  })
}

export function addRelayedResource(
  registry: ToolRegistry,
  upstream: Upstream,
  resource: Discovery['resources'][number],
  route: Route,
  controls: ControlsHolder,
): void {
  registry.resource({
    ...(uncached(resource) as { uri: string; name: string }),
    read: (uri, context) => read(route(upstream, uri), uri, resource.uri, context, controls),
    subscribe: (uri) => subscribe(registry, route(upstream, uri), uri),
  })
}

export function addRelayedTemplate(
  registry: ToolRegistry,
  upstream: Upstream,
  template: Discovery['resourceTemplates'][number],
  route: Route,
  controls: ControlsHolder,
): void {
  registry.resourceTemplate({
    ...(uncached(template) as { uriTemplate: string; name: string }),
    read: (uri, _variables, context) =>
      read(route(upstream, uri), uri, template.uriTemplate, context, controls),
    subscribe: (uri) => subscribe(registry, route(upstream, uri), uri),
  })
}

/** A read of `uri`, through the entry `entry` (a resource's URI or a template: what policies and metrics name). */
function read(
  upstream: Upstream,
  uri: string,
  entry: string,
  context: HandlerContext,
  controls: ControlsHolder,
): Promise<ResourceOutput> {
  const item = {
    kind: 'resource' as const,
    method: 'resources/read' as const,
    upstream: upstream.name,
    name: entry,
    original: uri,
  }
  return controlledCall(controls, item, uri, { uri }, context, (trace) =>
    relay(
      upstream,
      `resources/read ${uri}`,
      { uri },
      context,
      (session, options) => session.readResource(uri, options),
      trace,
    ),
  )
}

/** A client follows a resource: follow it upstream, and pass its updates on. */
function subscribe(registry: ToolRegistry, upstream: Upstream, uri: string): () => void {
  let stop: (() => void) | undefined
  let stopped = false
  void upstream
    .watchResource(uri, () => registry.resourceUpdated(uri))
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

/**
 * A listed resource without the registry's caching fields: an upstream's listing cannot make the
 * gateway keep a read (and answer it again to whoever asks next, past the policy). Every read
 * goes to the upstream, as its caller.
 */
function uncached<T extends Record<string, unknown>>(listed: T): Omit<T, 'ttlMs' | 'cacheScope'> {
  const { ttlMs: _ttl, cacheScope: _scope, ...rest } = listed
  return rest
}

/** True when the upstream declares that the tool runs as a task (`optional` or `required`). */
function runsAsTask(tool: Tool): boolean {
  const support = (tool as { execution?: { taskSupport?: unknown } }).execution?.taskSupport
  return support === 'optional' || support === 'required'
}
