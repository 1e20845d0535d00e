// Where a request to the HTTP handler (handler.ts) goes: on the MCP endpoint's path, once
// admitted (guard/admission.ts), it becomes an Exchange (exchange.ts) and goes to the POST, GET or
// DELETE handler by its method (405 for any other); elsewhere to /healthz, to OAuth's
// protected-resource metadata, or a 404.

import type { IncomingMessage, ServerResponse } from 'node:http'
import type { OAuthResource } from '../auth/oauth-resource.js'
import { rpcCodes } from '../errors.js'
import { refuse, sendError } from './answers.js'
import type { HttpEndpoint } from './endpoint.js'
import { Exchange } from './exchange.js'
import { handleDelete, handleGet } from './get-delete.js'
import { type Admission, type Admit, allowedMethods } from './guard/admission.js'
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
  /** Asked on each /healthz request (the handler's options). */
  probes: { ready?: () => boolean; health?: () => Record<string, unknown> }
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
      if (pathname === '/healthz' && (request.method === 'GET' || request.method === 'HEAD')) {
        const ready = probes.ready?.() ?? true
        const body = JSON.stringify({ status: ready ? 'ok' : 'unavailable', ...probes.health?.() })
        response.writeHead(ready ? 200 : 503, [
          'content-type',
          'application/json',
          'content-length',
          String(Buffer.byteLength(body)),
        ])
        response.end(request.method === 'HEAD' ? undefined : body)
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
