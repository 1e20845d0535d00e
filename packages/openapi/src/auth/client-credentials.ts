// OAuth 2 client credentials (RFC 6749 §4.4) for a scheme whose `flows.clientCredentials` names a
// token URL: the client authenticates with HTTP basic, the token is kept until shortly before it
// expires. The token URL must be https (or http on a loopback address): the client secret goes
// there.

import { isRecord } from '@mcp-kit/core'

export interface ClientCredentials {
  clientId: string
  clientSecret: string
}

const loopback = new Set(['127.0.0.1', 'localhost', '[::1]'])
// A token answer is a few hundred bytes; a token endpoint is no reason to hold more in memory.
const maximumTokenAnswerBytes = 64 * 1024

/** The JSON object of a token answer, read no further than the limit ({} when it is not one). */
async function boundedJson(response: Response): Promise<Record<string, unknown>> {
  const reader = response.body?.getReader()
  if (reader === undefined) return {}
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maximumTokenAnswerBytes) {
      await reader.cancel()
      return {}
    }
    chunks.push(value)
  }
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    return isRecord(value) ? value : {}
  } catch {
    return {}
  }
}

export function createTokenSource(
  name: string,
  scheme: Record<string, unknown>,
  client: ClientCredentials,
  scopes: readonly string[],
  base: URL,
  fetchToken: typeof fetch = fetch,
  onToken: (token: string) => void = () => {},
) {
  const flows = scheme.flows as { clientCredentials?: { tokenUrl?: unknown } } | undefined
  const declared = flows?.clientCredentials?.tokenUrl
  let cached: { token: string; until: number } | undefined
  let pending: Promise<string> | undefined

  async function fetchNew(signal: AbortSignal): Promise<string> {
    if (typeof declared !== 'string') {
      throw new Error(`security scheme '${name}' has no client credentials flow with a tokenUrl`)
    }
    const url = new URL(declared, base)
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback.has(url.hostname))) {
      throw new Error(
        `security scheme '${name}': the token URL ${url.origin} is not https; the client secret is not sent there`,
      )
    }
    const form = new URLSearchParams({ grant_type: 'client_credentials' })
    if (scopes.length > 0) form.set('scope', scopes.join(' '))
    const basic = Buffer.from(
      `${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`,
    ).toString('base64')
    const response = await fetchToken(url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: form.toString(),
      redirect: 'manual',
      signal,
    })
    const answer = await boundedJson(response)
    if (!response.ok || typeof answer.access_token !== 'string') {
      const reason = typeof answer.error === 'string' ? `: ${answer.error.slice(0, 200)}` : ''
      throw new Error(
        `security scheme '${name}': the token endpoint ${url.origin} answered ${response.status}${reason}`,
      )
    }
    const seconds = typeof answer.expires_in === 'number' ? answer.expires_in : 3600
    onToken(answer.access_token)
    cached = { token: answer.access_token, until: Date.now() + Math.max(0, seconds - 30) * 1000 }
    return answer.access_token
  }

  return {
    async token(signal: AbortSignal): Promise<string> {
      if (cached !== undefined && Date.now() < cached.until) return cached.token
      pending ??= fetchNew(signal).finally(() => {
        pending = undefined
      })
      return pending
    },
  }
}
