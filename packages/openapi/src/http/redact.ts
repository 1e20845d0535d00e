// Secrets never leave in what a tool says: its results, error messages, relayed headers (a
// redirect's Location) and so the server's traces. Every secret the server holds for an API
// (credentials, the tokens they were exchanged for, configured header values that look like
// credentials) is replaced by `[redacted]` wherever it appears as is, percent-encoded, form-encoded
// or JSON-escaped: an API that echoes the request URL or its query would otherwise hand back the
// key it was sent.

import { encode } from './serialize.js'

export interface Redactor {
  /** Adds a secret (e.g. a token fetched while serving). */
  add(secret: string): void
  /** The text with every secret replaced. */
  text(text: string): string
}

const mark = '[redacted]'
// Shorter values would blank out ordinary text; no real credential is this short.
const minimumLength = 4

function formsOf(secret: string): string[] {
  const component = encode(secret)
  return [
    secret,
    component,
    encodeURIComponent(secret),
    component.replace(/%20/g, '+'),
    JSON.stringify(secret).slice(1, -1),
  ]
}

export function createRedactor(secrets: Iterable<string> = []): Redactor {
  let forms: string[] = []
  const known = new Set<string>()
  const redactor: Redactor = {
    add(secret) {
      if (secret.length < minimumLength || known.has(secret)) return
      known.add(secret)
      forms = [...new Set([...forms, ...formsOf(secret)])].sort((a, b) => b.length - a.length)
    },
    text(text) {
      let out = text
      for (const form of forms) if (out.includes(form)) out = out.split(form).join(mark)
      return out
    },
  }
  for (const secret of secrets) redactor.add(secret)
  return redactor
}

// Header names that say their value is a credential.
const credentialNames = /auth|key|token|secret|pass|session|cookie|credential|signature/i

/** The values of configured headers to keep secret: credential-like names, and long values. */
export function headerSecrets(headers: Readonly<Record<string, string>>): string[] {
  return Object.entries(headers)
    .filter(([name, value]) => credentialNames.test(name) || value.length >= 16)
    .flatMap(([, value]) => [value, ...value.split(/[\s;=]+/).filter((word) => word.length >= 8)])
}
