// What `serve` as a gateway adds to its HTTP server: named tokens (`tokens` in the controls,
// swapped on reload), `/readyz` (every upstream up or startable, the store reachable),
// `/metrics` (Prometheus, public: put it behind your network's rules) and `/admin/status`
// (upstream health and per-tool figures as JSON, behind the endpoint's credentials and the
// controls' `admin` principals).

import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ControlsSpec, Gateway, PrincipalSpec } from '@mcp-kit/gateway'
import type { AuthInfo, ExtraRoute, HttpServerOptions } from '@mcp-kit/server'

/** The controls that HTTP answers depend on, replaced by a reload. */
export interface LiveControls {
  current: ControlsSpec | undefined
}

function send(response: ServerResponse, status: number, type: string, body: string, head: boolean): void {
  response.writeHead(status, [
    'content-type',
    type,
    'content-length',
    String(Buffer.byteLength(body)),
    'cache-control',
    'no-store',
  ])
  response.end(head ? undefined : body)
}

function json(request: IncomingMessage, response: ServerResponse, status: number, value: unknown): void {
  send(response, status, 'application/json', JSON.stringify(value), request.method === 'HEAD')
}

export async function gatewayHttpOptions(
  gateway: Gateway,
  live: LiveControls,
  hasCredentials: boolean,
): Promise<Pick<HttpServerOptions, 'routes' | 'readiness' | 'verifyToken'>> {
  const { compilePrincipal, tokenVerifier } = await import('@mcp-kit/gateway')
  let verifierOf: ControlsSpec | undefined
  let verify: ((token: string) => AuthInfo | undefined) | undefined
  const routes = new Map<string, ExtraRoute>()
  routes.set('/admin/status', {
    auth: true,
    handle(request, response, authInfo) {
      if (!mayAdminister(live.current, authInfo, hasCredentials, compilePrincipal)) {
        json(request, response, 403, {
          error: "Forbidden: not an administrator of this gateway (the controls' admin)",
        })
        return
      }
      gateway.status().then(
        (status) => json(request, response, 200, status),
        () => json(request, response, 500, { error: 'Internal error' }),
      )
    },
  })
  if (gateway.metrics() !== undefined) {
    routes.set('/metrics', {
      auth: false,
      handle(request, response) {
        gateway.metrics()?.then(
          (metrics) => send(response, 200, metrics.contentType, metrics.body, request.method === 'HEAD'),
          () => send(response, 500, 'text/plain', 'metrics failed\n', false),
        )
      },
    })
  }
  const options: Pick<HttpServerOptions, 'routes' | 'readiness' | 'verifyToken'> = {
    routes,
    readiness: () => gateway.readiness(),
  }
  if ((live.current?.tokens.length ?? 0) > 0) {
    options.verifyToken = (token) => {
      if (verifierOf !== live.current) {
        verifierOf = live.current
        verify = tokenVerifier(live.current?.tokens ?? [])
      }
      return verify?.(token)
    }
  }
  return options
}

/**
 * Who may read /admin/status: the controls' `admin` principals; without any, everyone the
 * endpoint admits when it checks no credentials (a local gateway), nobody when it does.
 */
function mayAdminister(
  controls: ControlsSpec | undefined,
  authInfo: AuthInfo | undefined,
  hasCredentials: boolean,
  compilePrincipal: (spec: PrincipalSpec) => (authInfo: AuthInfo | undefined) => boolean,
): boolean {
  const admin = controls?.admin
  if (admin === undefined) return !hasCredentials
  return compilePrincipal(admin)(authInfo)
}
