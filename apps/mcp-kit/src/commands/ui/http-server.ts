// The HTTP side of `mcp-kit ui` over node:http: every request passes the guards, then goes to the
// API (/api/…) or to the web client's static files.

import { createServer, type Server } from 'node:http'
import { handleApi } from './api.js'
import { admit, type GuardOptions, securityHeaders, tokenCookie } from './guards.js'
import type { StaticFiles } from './static-files.js'
import type { Workspace } from './workspace.js'

export interface UiServerOptions {
  workspace: Workspace
  files: StaticFiles
  token: string
  /** Host names answered to besides loopback's (a --host). */
  hosts: readonly string[]
}

/** The page's CSP with the app sandbox's origin allowed as a frame (views run there). */
function pageHeaders(sandboxOrigin: string | undefined): Record<string, string> {
  const csp = securityHeaders['content-security-policy'] as string
  if (sandboxOrigin === undefined) return {}
  return {
    'content-security-policy': csp.replace(
      "object-src 'none'",
      `frame-src ${sandboxOrigin}; object-src 'none'`,
    ),
  }
}

/** A server whose guards know its port once it listens (port 0 picks a free one). */
export function createUiServer(options: UiServerOptions): Server {
  const guard: GuardOptions = { token: options.token, hosts: options.hosts, port: 0 }
  const server = createServer((request, response) => {
    const page = pageHeaders(options.workspace.sandbox?.origin)
    const url = new URL(request.url ?? '/', 'http://localhost')
    const admission = admit(request, url, guard)
    if (admission.ok === 'login') {
      // The page itself, with the cookie: the page takes the token out of its address at once.
      if (
        url.pathname !== '/' ||
        !options.files.serve(request, response, '/', {
          ...page,
          'set-cookie': tokenCookie(guard),
          'cache-control': 'no-store',
        })
      ) {
        response.writeHead(404, { ...securityHeaders, 'content-type': 'text/plain; charset=utf-8' })
        response.end('not found\n')
      }
      return
    }
    if (admission.ok === false) {
      response.writeHead(admission.status, {
        ...securityHeaders,
        'content-type': 'text/plain; charset=utf-8',
      })
      response.end(`mcp-kit ui: ${admission.message}\n`)
      return
    }
    if (url.pathname.startsWith('/api/')) {
      void handleApi(request, response, url, options.workspace)
      return
    }
    const method = request.method ?? 'GET'
    if ((method === 'GET' || method === 'HEAD') && options.files.serve(request, response, url.pathname, page))
      return
    response.writeHead(404, { ...securityHeaders, 'content-type': 'text/plain; charset=utf-8' })
    response.end('not found\n')
  })
  server.on('listening', () => {
    const address = server.address()
    if (typeof address === 'object' && address !== null) guard.port = address.port
  })
  return server
}
