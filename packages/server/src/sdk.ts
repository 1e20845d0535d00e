// The official MCP SDK's server package (v2), loaded on first use: loading it is slow (its zod
// schemas), and most servers never need what this package takes from it (RFC 6570 URI template
// matching, the requestState codec). Loaded synchronously through its CommonJS build, so
// registering a resource template can stay synchronous.

import { createRequire } from 'node:module'

type ServerSdk = typeof import('@modelcontextprotocol/server')

let loaded: ServerSdk | undefined

export function serverSdk(): ServerSdk {
  loaded ??= createRequire(import.meta.url)('@modelcontextprotocol/server') as ServerSdk
  return loaded
}
