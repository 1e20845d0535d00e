// The official MCP SDK's server package (v2), loaded on first use: it costs ~0.25 s to load
// (zod schemas), and most servers never need what this package takes from it at run time
// (RFC 6570 URI template matching, the requestState codec). Loaded synchronously through its
// CommonJS build, so registering a resource template can stay synchronous; every use shares the
// one copy.

import { createRequire } from 'node:module'

type ServerSdk = typeof import('@modelcontextprotocol/server')

let loaded: ServerSdk | undefined

export function serverSdk(): ServerSdk {
  loaded ??= createRequire(import.meta.url)('@modelcontextprotocol/server') as ServerSdk
  return loaded
}
