// The browser leg of a command-line login (RFC 8252): a listener on 127.0.0.1 takes the redirect. Any
// local process can reach that port, so only the callback with the authorization URL's `state` ends it.

import { spawn } from 'node:child_process'
import { timingSafeEqual } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ClientError } from '../errors.js'
import type { Authorizer } from './provider.js'

export interface LoopbackOptions {
  /** Try to open the system browser (default true); the URL is printed either way. */
  openBrowser?: boolean | undefined
  /** How long to wait for the redirect that carries the login's state (default 5 minutes). */
  timeoutMs?: number | undefined
  /** Where to tell the user what to do (the URL to open). */
  say: (message: string) => void
  signal?: AbortSignal | undefined
}

const page = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:sans-serif;margin:3em"><h1>${title}</h1><p>${text}</p></body>`

/** Opens `url` with the platform's opener, without a shell; false when that is not possible. */
function openInBrowser(url: string): Promise<boolean> {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['rundll32', ['url.dll,FileProtocolHandler', url]]
        : ['xdg-open', [url]]
  return new Promise((resolve) => {
    try {
      const child = spawn(command, args, { stdio: 'ignore', detached: true })
      child.once('error', () => resolve(false))
      child.once('spawn', () => {
        child.unref()
        resolve(true)
      })
    } catch {
      resolve(false)
    }
  })
}

/** True when `received` is the login's state (compared in constant time). */
function sameState(received: string | null, expected: string | undefined): boolean {
  if (received === null || expected === undefined || expected === '') return false
  const a = Buffer.from(received)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * Opens the authorization URL in the user's browser (or prints it) and waits for the redirect.
 * Requests without the login's `state` get a 400 page and are ignored, their text never shown,
 * until the time limit.
 */
export function loopbackAuthorizer(options: LoopbackOptions): Authorizer {
  let server: Server | undefined
  let redirect: string | undefined
  /** The state of the authorization URL opened last: the only callback that ends the login. */
  let expectedState: string | undefined
  let warned = false
  let received: ((params: URLSearchParams) => void) | undefined
  const arrived = new Promise<URLSearchParams>((resolve) => {
    received = resolve
  })
  return {
    async prepare() {
      if (redirect !== undefined) return redirect
      server = createServer((request, response) => {
        const url = new URL(request.url ?? '/', 'http://127.0.0.1')
        if (request.method !== 'GET' || url.pathname !== '/callback') {
          response.writeHead(404, { 'content-type': 'text/plain' })
          response.end('not found')
          return
        }
        const headers = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }
        if (!sameState(url.searchParams.get('state'), expectedState)) {
          response.writeHead(400, headers)
          response.end(
            page(
              'Not this login',
              'This is not the answer to the login mcp-kit is waiting for; it was ignored.',
            ),
          )
          if (!warned) {
            warned = true
            options.say('ignored a request to the login callback that did not carry this login’s state')
          }
          return
        }
        const failed = url.searchParams.get('error')
        response.writeHead(200, headers)
        response.end(
          failed === null
            ? page('Logged in', 'mcp-kit has what it needs. You can close this window.')
            : page('Login failed', 'The authorization server refused the login; see the terminal.'),
        )
        received?.(url.searchParams)
      })
      await new Promise<void>((resolve, reject) => {
        server?.once('error', reject)
        server?.listen(0, '127.0.0.1', () => resolve())
      })
      redirect = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`
      return redirect
    },
    async open(url) {
      const state = url.searchParams.get('state')
      if (state === null || state === '') {
        throw new ClientError(
          'auth_required',
          'the authorization URL carries no state: the login cannot be checked',
        )
      }
      expectedState = state
      const opened = options.openBrowser !== false && (await openInBrowser(url.href))
      options.say(
        opened
          ? `opening a browser to log in; if none appears, open:\n  ${url.href}`
          : `to log in, open this URL in a browser:\n  ${url.href}`,
      )
    },
    async callback() {
      const timeoutMs = options.timeoutMs ?? 300_000
      let timer: NodeJS.Timeout | undefined
      const expired = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new ClientError('timeout', `no login within ${Math.round(timeoutMs / 1000)} s`, {
                details: { limit: 'login' },
              }),
            ),
          timeoutMs,
        )
      })
      const aborted = new Promise<never>((_, reject) => {
        options.signal?.addEventListener(
          'abort',
          () => reject(new ClientError('cancelled', 'the login was cancelled')),
          { once: true },
        )
      })
      try {
        return await Promise.race([arrived, expired, aborted])
      } finally {
        clearTimeout(timer)
        await this.close()
      }
    },
    async close() {
      const running = server
      server = undefined
      if (running === undefined) return
      running.closeAllConnections()
      await new Promise<void>((resolve) => running.close(() => resolve()))
    },
  }
}
