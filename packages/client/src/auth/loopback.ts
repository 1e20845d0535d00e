// The browser leg of a login for a command-line client (RFC 8252): a one-shot HTTP listener on
// 127.0.0.1 at an ephemeral port receives the authorization server's redirect; the authorization
// URL is opened in the user's browser, or printed for them to open. Only the expected path is
// answered; the callback's state is checked by the flow; the wait has a time limit.

import { spawn } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ClientError } from '../errors.js'
import type { Authorizer } from './provider.js'

export interface LoopbackOptions {
  /** Try to open the system browser (default true); the URL is printed either way. */
  openBrowser?: boolean
  /** How long to wait for the redirect (default 5 minutes). */
  timeoutMs?: number
  /** Where to tell the user what to do (the URL to open). */
  say: (message: string) => void
  signal?: AbortSignal
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

export function loopbackAuthorizer(options: LoopbackOptions): Authorizer {
  let server: Server | undefined
  let redirect: string | undefined
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
        const failed = url.searchParams.get('error')
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
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
