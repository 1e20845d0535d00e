// Who may talk to `mcp-kit ui`: a request to a Host we serve (no DNS rebinding), from a page of
// ours (Origin), carrying the per-launch token (once in the URL, then an HttpOnly cookie). Every
// answer gets a Content-Security-Policy that allows no inline script and no request off the machine.

import { timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

export const securityHeaders: Record<string, string> = {
  'content-security-policy': [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'x-frame-options': 'DENY',
}

export interface GuardOptions {
  token: string
  /** Host names the server answers to (127.0.0.1, localhost, [::1], and a --host). */
  hosts: readonly string[]
  port: number
}

export type Admission = { ok: true } | { ok: false; status: number; message: string } | { ok: 'login' }

function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined) return false
  const a = Buffer.from(given)
  const b = Buffer.from(token)
  return a.length === b.length && timingSafeEqual(a, b)
}

export function cookieName(port: number): string {
  return `mcp-kit-ui-${port}`
}

function cookieToken(request: IncomingMessage, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=')
    if (key === name) return value.join('=')
  }
  return undefined
}

/** Decides whether a request may go on; `login` when it carries the right token in its URL. */
export function admit(request: IncomingMessage, url: URL, options: GuardOptions): Admission {
  const allowed = options.hosts.map((host) => `${host}:${options.port}`)
  if (!allowed.includes(request.headers.host ?? '')) {
    return { ok: false, status: 403, message: 'this Host is not served here' }
  }
  const origin = request.headers.origin
  const method = request.method ?? 'GET'
  if (origin !== undefined && !allowed.map((host) => `http://${host}`).includes(origin)) {
    return { ok: false, status: 403, message: 'requests from other origins are refused' }
  }
  if (origin === undefined && method !== 'GET' && method !== 'HEAD') {
    return { ok: false, status: 403, message: 'a change needs the Origin header of this page' }
  }
  if (sameToken(url.searchParams.get('token') ?? undefined, options.token)) return { ok: 'login' }
  if (!sameToken(cookieToken(request, cookieName(options.port)), options.token)) {
    return {
      ok: false,
      status: 401,
      message: 'open the address `mcp-kit ui` printed (it carries this launch’s token)',
    }
  }
  return { ok: true }
}

/** The cookie that carries the token from the first page on. */
export function tokenCookie(options: GuardOptions): string {
  return `${cookieName(options.port)}=${options.token}; HttpOnly; SameSite=Strict; Path=/`
}
