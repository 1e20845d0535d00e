// The web client's files, served from @mcp-kit/ui's assets directory only: the list of files is
// read once at start, so no request names a path outside it. A .br or .gz copy is sent when the
// browser takes it.

import { readdirSync, readFileSync, statSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { join, relative, sep } from 'node:path'
import { securityHeaders } from './guards.js'

const types: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  ico: 'image/x-icon',
  json: 'application/json',
  woff2: 'font/woff2',
  txt: 'text/plain; charset=utf-8',
}

export interface StaticFiles {
  /** Sends the file at this URL path; false when there is no such file. */
  serve(
    request: IncomingMessage,
    response: ServerResponse,
    path: string,
    headers?: Record<string, string>,
  ): boolean
}

function listFiles(directory: string, root = directory): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name)
    if (statSync(path).isDirectory()) return listFiles(path, root)
    return [relative(root, path).split(sep).join('/')]
  })
}

export function createStaticFiles(directory: string): StaticFiles {
  const files = new Set(listFiles(directory))
  const cache = new Map<string, Buffer>()
  const read = (name: string) => {
    let bytes = cache.get(name)
    if (bytes === undefined) {
      bytes = readFileSync(join(directory, name))
      cache.set(name, bytes)
    }
    return bytes
  }
  return {
    serve(request, response, path, headers = {}) {
      const name = path === '/' ? 'index.html' : path.slice(1)
      if (!files.has(name) || name.endsWith('.br') || name.endsWith('.gz')) return false
      const extension = name.slice(name.lastIndexOf('.') + 1)
      const accepted = String(request.headers['accept-encoding'] ?? '')
      const encoding =
        /\bbr\b/.test(accepted) && files.has(`${name}.br`)
          ? 'br'
          : /\bgzip\b/.test(accepted) && files.has(`${name}.gz`)
            ? 'gzip'
            : undefined
      const file = encoding === 'br' ? `${name}.br` : encoding === 'gzip' ? `${name}.gz` : name
      const body = read(file)
      response.writeHead(200, {
        ...securityHeaders,
        'content-type': types[extension] ?? 'application/octet-stream',
        'content-length': body.length,
        'cache-control': name.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        vary: 'accept-encoding',
        ...(encoding === undefined ? {} : { 'content-encoding': encoding }),
        ...headers,
      })
      response.end(request.method === 'HEAD' ? undefined : body)
      return true
    },
  }
}
