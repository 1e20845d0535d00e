// The MCP Apps sandbox of `mcp-kit ui`: a second listener on its own loopback port, so views run
// on another origin than the workspace. It serves the outer proxy page (framed only by the
// workspace) and, once each, a view registered by the workspace, with the CSP built from its
// `_meta.ui.csp` as a header and a listener that reports CSP violations to the proxy.

import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface AppSandbox {
  /** `http://127.0.0.1:PORT`. */
  readonly origin: string
  /** The proxy page's address for a workspace page at `hostOrigin`. */
  proxyUrl(hostOrigin: string): string
  /** Keeps a view for one load; gives the token its address ends with. */
  register(html: string, csp: string): string
  close(): Promise<void>
}

const proxyPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>mcp-kit app sandbox</title>
<style>html,body{margin:0;height:100%;overflow:hidden}iframe{border:0;width:100%;height:100%;display:block}</style>
</head><body><script src="/proxy.js"></script></body></html>
`

// The outer frame: says it is ready, makes the inner frame when the workspace names the view,
// and passes every other message on, each way, checking where it came from.
const proxyScript = `'use strict';
(function () {
  var host = window.parent
  var hostOrigin = new URL(location.href).searchParams.get('host')
  var inner
  window.addEventListener('message', function (event) {
    var message = event.data
    if (event.source === host && event.origin === hostOrigin) {
      if (message && message.method === 'ui/notifications/sandbox-resource-ready') {
        var params = message.params || {}
        if (inner || typeof params.view !== 'string' || !/^[A-Za-z0-9_-]+$/.test(params.view)) return
        inner = document.createElement('iframe')
        inner.setAttribute('sandbox', 'allow-scripts')
        if (typeof params.allow === 'string') inner.setAttribute('allow', params.allow)
        inner.title = 'MCP App view'
        inner.src = '/view/' + params.view
        document.body.appendChild(inner)
        return
      }
      if (inner && inner.contentWindow) inner.contentWindow.postMessage(message, '*')
      return
    }
    if (inner && event.source === inner.contentWindow) host.postMessage(message, hostOrigin)
  })
  host.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, hostOrigin)
})()
`

// Runs first in the view: each CSP violation is told to the proxy (and so the workspace).
const violationReporter = `<script>(function(){var n=0;document.addEventListener('securitypolicyviolation',function(e){if(++n>100)return;parent.postMessage({jsonrpc:'2.0',method:'mcp-kit/csp-violation',params:{directive:String(e.effectiveDirective||e.violatedDirective||''),blockedURI:String(e.blockedURI||'').slice(0,1000),sourceFile:String(e.sourceFile||'').slice(0,1000),line:e.lineNumber||0,disposition:String(e.disposition||'')}},'*')})})()</script>`

/** The view's HTML with the reporter first in its head (after the doctype, so no quirks mode). */
export function withReporter(html: string): string {
  const head = /<head(?:\s[^>]*)?>/i.exec(html)
  if (head)
    return (
      html.slice(0, head.index + head[0].length) + violationReporter + html.slice(head.index + head[0].length)
    )
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html)
  if (doctype) return doctype[0] + violationReporter + html.slice(doctype[0].length)
  return violationReporter + html
}

const plain = { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' }

/** Starts the sandbox's listener on `host` (a free port); only pages of `hostOrigins` may frame it. */
export async function startAppSandbox(host: string, hostOrigins: readonly string[]): Promise<AppSandbox> {
  const views = new Map<string, { html: string; csp: string }>()
  let origin = ''
  // CSP has no IPv6 literals: a page at [::1] cannot frame views (use 127.0.0.1 or localhost).
  const ancestors = hostOrigins.filter((each) => !each.includes('[')).join(' ')
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://sandbox')
    if (
      request.headers.host !== new URL(origin).host ||
      (request.method !== 'GET' && request.method !== 'HEAD')
    ) {
      response.writeHead(403, plain)
      response.end('mcp-kit ui sandbox: refused\n')
      return
    }
    const common = {
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    }
    if (url.pathname === '/proxy') {
      response.writeHead(200, {
        ...common,
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': `default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; frame-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors ${ancestors}`,
      })
      response.end(proxyPage)
      return
    }
    if (url.pathname === '/proxy.js') {
      response.writeHead(200, { ...common, 'content-type': 'text/javascript; charset=utf-8' })
      response.end(proxyScript)
      return
    }
    const token = url.pathname.startsWith('/view/') ? url.pathname.slice('/view/'.length) : undefined
    const view = token === undefined ? undefined : views.get(token)
    if (token !== undefined && view !== undefined) {
      views.delete(token)
      response.writeHead(200, {
        ...common,
        'content-type': 'text/html; charset=utf-8',
        // Every ancestor is checked: the proxy, and the workspace page above it.
        'content-security-policy': `${view.csp}; frame-ancestors ${origin} ${ancestors}`,
      })
      response.end(withReporter(view.html))
      return
    }
    response.writeHead(404, plain)
    response.end('not found\n')
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`
  return {
    origin,
    proxyUrl: (hostOrigin) => `${origin}/proxy?host=${encodeURIComponent(hostOrigin)}`,
    register(html, csp) {
      const token = randomBytes(18).toString('base64url')
      views.set(token, { html, csp })
      // A view never loaded is dropped after a minute.
      setTimeout(() => views.delete(token), 60_000).unref()
      return token
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
