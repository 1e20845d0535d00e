// The Streamable HTTP endpoint (MCP 2026-07-28 per request, 2025 revisions in sessions) as a
// node:http request handler: it makes the endpoint (endpoint.ts) and the admission of requests
// (guard/admission.ts), and hands each request to the router (routes.ts), which sends it down
// the request path of docs/architecture.md "Request path". It answers nothing itself but the 500
// for what a stage throws.

import { rpcCodes } from '../errors.js'
import type { ToolRegistry } from '../registry/registry.js'
import { sendError } from './answers.js'
import { HttpEndpoint } from './endpoint.js'
import { createAdmission } from './guard/admission.js'
import { isLingering } from './guard/lingering-close.js'
import type { HttpHandler, HttpHandlerOptions } from './handler-types.js'
import { createRouter } from './routes.js'

export type * from './handler-types.js'

/** Creates the request handler; `registry` is served by one runtime shared by all sessions. */
export function createHttpHandler(registry: ToolRegistry, options: HttpHandlerOptions = {}): HttpHandler {
  const endpoint = new HttpEndpoint(registry, options)
  const oauth = options.oauth === undefined ? undefined : Promise.resolve(options.oauth)
  oauth?.then(
    (resource) => {
      endpoint.oauthResource = resource
    },
    () => {},
  )
  const route = createRouter({
    path: options.path ?? '/mcp',
    endpoint,
    admit: createAdmission({ ...options, oauth }),
    oauth,
    oauthResource: () => endpoint.oauthResource,
    probes: options,
    routes: options.routes,
  })

  return {
    runtime: endpoint.runtime,
    handle(request, response) {
      // A request pipelined behind a refused one: its connection is closing, nothing is served.
      if (isLingering(request)) {
        request.resume()
        return
      }
      try {
        route(request, response)
      } catch (error) {
        // Hostile or unexpected input must never take the process down or leak a stack.
        endpoint.report(error)
        try {
          sendError(response, 500, rpcCodes.internalError, 'Internal error')
        } catch {
          response.destroy()
        }
      }
    },
    stats() {
      return endpoint.stats()
    },
    close(closeOptions = {}) {
      return endpoint.lifecycle.close(closeOptions.graceMs ?? 10_000)
    },
  }
}
