// Where a request to the HTTP handler (handler.ts) goes: on the MCP endpoint's path, once
// admitted (guard/admission.ts), it becomes an Exchange (exchange.ts) and goes to the POST, GET or
// DELETE handler by its method (405 for any other); elsewhere to /healthz (alive), /readyz (ready to serve), the extra routes a server
// adds (a gateway's /metrics; those that ask for it admitted first), to OAuth's
// protected-resource metadata, or a 404.

import type { IncomingMessage, ServerResponse } from 'node:http'
import type { OAuthResource } from '../auth/oauth-resource.js'
import { rpcCodes } from '../errors.js'
import { refuse, sendError } from './answers.js'
import type { HttpEndpoint } from './endpoint.js'
import { Exchange } from './exchange.js'
import { handleDelete, handleGet } from './get-delete.js'
import { type Admission, type Admit, allowedMethods } from './guard/admission.js'
import type { ExtraRoute } from './handler-types.js'
import { handlePost } from './post.js'

export interface RouterOptions {
  /** The MCP endpoint's path. */
  path: string
  endpoint: HttpEndpoint
  admit: Admit
  /** Set when clients present OAuth access tokens (the resource may still be starting up). */
  oauth: Promise<OAuthResource> | undefined
  /** The OAuth resource once it is ready: its metadata is served from then on. */
  oauthResource(): OAuthResource | undefined
  /** Asked on each /healthz and /readyz request (the handler's options). */
  probes: {
    ready?: () => boolean
    health?: () => Record<string, unknown>
    readiness?: () => { ready: boolean } & Record<string, unknown>
  }
  /** Routes beside the endpoint (HttpHandlerOptions.routes). */
  routes?: ReadonlyMap<string, ExtraRoute> | undefined
}

function sendJson(request: IncomingMessage, response: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value)
  response.writeHead(status, [
    'content-type',
    'application/json',
    'content-length',
    String(Buffer.byteLength(body)),
    'cache-control',
    'no-store',
  ])
  response.end(request.method === 'HEAD' ? undefined : body)
}

/** The request listener that routes; it throws what a handler throws synchronously. */
export function createRouter(
  options: RouterOptions,
): (request: IncomingMessage, response: ServerResponse) => void {
  const { path, endpoint, admit, oauth, probes } = options

  /** RFC 9728 protected-resource metadata, public to any origin; false when not its path. */
  function serveMetadata(request: IncomingMessage, response: ServerResponse, pathname: string): boolean {
    const oauthResource = options.oauthResource()
    if (!oauthResource?.metadataPaths.includes(pathname)) return false
    request.resume()
    const body = JSON.stringify(oauthResource.metadata)
    response.writeHead(200, [
      'content-type',
      'application/json',
      'content-length',
      String(Buffer.byteLength(body)),
      'access-control-allow-origin',
      '*',
      'cache-control',
      'max-age=300',
    ])
    response.end(request.method === 'HEAD' ? undefined : body)
    return true
  }

  function route(request: IncomingMessage, response: ServerResponse): void {
    const url = request.url ?? '/'
    const queryAt = url.indexOf('?')
    const pathname = queryAt === -1 ? url : url.slice(0, queryAt)
    if (pathname !== path) {
      if (oauth !== undefined && (request.method === 'GET' || request.method === 'HEAD')) {
        if (serveMetadata(request, response, pathname)) return
      }
      const reading = request.method === 'GET' || request.method === 'HEAD'
      if (pathname === '/healthz' && reading) {
        const ready = probes.ready?.() ?? true
        sendJson(request, response, ready ? 200 : 503, {
          status: ready ? 'ok' : 'unavailable',
          ...probes.health?.(),
        })
        return
      }
      if (pathname === '/readyz' && reading) {
        request.resume()
        const stored = probes.ready?.() ?? true
        const report = probes.readiness?.() ?? { ready: true }
        const ready = stored && report.ready
        sendJson(request, response, ready ? 200 : 503, {
          ...report,
          status: ready ? 'ready' : 'unavailable',
          ready,
          store: stored,
        })
        return
      }
      const extra = reading ? options.routes?.get(pathname) : undefined
      if (extra !== undefined) {
        serveExtra(request, response, extra)
        return
      }
      refuse(request, response, 404, rpcCodes.transportError, `Not Found: the MCP endpoint is ${path}`)
      return
    }
    const admitted = admit(request, response)
    if (admitted === undefined) return
    if (admitted instanceof Promise) {
      admitted.then(
        (admission) => {
          if (admission !== undefined) dispatch(request, response, admission)
        },
        (error: unknown) => {
          endpoint.report(error)
          sendError(response, 503, rpcCodes.transportError, 'Service Unavailable: cannot check tokens now', [
            'retry-after',
            '5',
          ])
        },
      )
      return
    }
    dispatch(request, response, admitted)
  }

  function serveExtra(request: IncomingMessage, response: ServerResponse, extra: ExtraRoute): void {
    request.resume()
    if (!extra.auth) {
      extra.handle(request, response, undefined)
      return
    }
    const admitted = admit(request, response)
    if (admitted === undefined) return
    if (!(admitted instanceof Promise)) {
      extra.handle(request, response, admitted.authInfo)
      return
    }
    admitted.then(
      (admission) => {
        if (admission !== undefined) extra.handle(request, response, admission.authInfo)
      },
      (error: unknown) => {
        endpoint.report(error)
        sendError(response, 503, rpcCodes.transportError, 'Service Unavailable: cannot check tokens now')
      },
    )
  }

  function dispatch(request: IncomingMessage, response: ServerResponse, admission: Admission): void {
    const exchange = new Exchange(endpoint, request, response, admission)
    switch (request.method) {
      case 'POST':
        handlePost(exchange)
        return
      case 'GET':
        request.resume()
        handleGet(exchange)
        return
      case 'DELETE':
        request.resume()
        handleDelete(exchange)
        return
      default:
        exchange.refuse(405, rpcCodes.transportError, 'Method Not Allowed', [
          'allow',
          endpoint.stateless ? 'POST, OPTIONS' : allowedMethods,
        ])
        return
    }
  }

  return route
}
