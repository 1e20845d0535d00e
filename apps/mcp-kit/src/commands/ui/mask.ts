// Secrets never reach the page: references, command lines and server specs are shown with the
// values of environment variables, secret-named parameters and headers, URL passwords and
// token-shaped words replaced by a mask.

import type { ServerSpec } from '@mcp-kit/client'
import { isSecretHeader, isSecretName, looksLikeSecret } from '@mcp-kit/profiles'

export const mask = '•••'

/** A URL with its password and its secret-named query values masked. */
function maskUrl(text: string): string {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return text
  }
  if (url.password !== '') url.password = 'masked'
  for (const [name, value] of [...url.searchParams]) {
    if (name.startsWith('env.') || isSecretName(name) || looksLikeSecret(value))
      url.searchParams.set(name, 'masked')
  }
  return url.href.replaceAll('masked', mask)
}

/** One word of a reference or command line, masked where it holds a secret. */
export function maskWord(word: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(word)) {
    // mcp+npx://pkg?env.TOKEN=x — the query after the target, masked pair by pair.
    const query = word.indexOf('?')
    if (word.startsWith('mcp+') && !/^mcp\+https?:/.test(word) && query !== -1) {
      const masked = word
        .slice(query + 1)
        .split('&')
        .map((pair) => maskWord(pair))
      return `${word.slice(0, query + 1)}${masked.join('&')}`
    }
    return word.startsWith('mcp+') ? `mcp+${maskUrl(word.slice(4))}` : maskUrl(word)
  }
  if (looksLikeSecret(word)) return mask
  const equals = word.indexOf('=')
  if (equals > 0) {
    const name = word.slice(0, equals).replace(/^-+/, '')
    if (name.startsWith('env.') || isSecretName(name) || looksLikeSecret(word.slice(equals + 1)))
      return `${word.slice(0, equals + 1)}${mask}`
  }
  return word
}

/** A reference or a command line as text, word by word. */
export function maskText(text: string): string {
  return text
    .split(' ')
    .map((word) => maskWord(word))
    .join(' ')
}

/** A server spec for the page: environment values and secret headers masked. */
export function maskedSpec(spec: ServerSpec): Record<string, unknown> {
  if (spec.transport === 'http') {
    const headers = Object.fromEntries(
      Object.entries(spec.headers ?? {}).map(([name, value]) => [name, isSecretHeader(name) ? mask : value]),
    )
    return { transport: 'http', url: maskUrl(spec.url), headers }
  }
  return {
    transport: 'stdio',
    command: spec.command,
    args: spec.args.map((arg) => maskWord(arg)),
    env: Object.fromEntries(Object.keys(spec.env ?? {}).map((name) => [name, mask])),
    ...(spec.cwd === undefined ? {} : { cwd: spec.cwd }),
  }
}
