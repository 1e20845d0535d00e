// What `serve` shares with its other instances, and how: `--store redis://…` or `rediss://…`, or a
// Redis Cluster by one of its nodes, `redis-cluster://…` or `rediss-cluster://…` (or
// $MCP_KIT_STORE), a TLS store's certificate checked against `--store-ca FILE` (or
// $MCP_KIT_STORE_CA; else Node's CAs, which NODE_EXTRA_CA_CERTS extends), and the key that signs
// 2026 requestState from `--request-state-key-file` or $MCP_KIT_REQUEST_STATE_KEY instead of the
// store. A store that cannot be used is exit 3, saying why and what to change.

import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Store } from '@mcp-kit/server'
import { CliError } from '../../base/errors.js'
import type { Io } from '../../base/io.js'
import { writeDiagnostic } from '../../output/diagnostics.js'
import { sanitizeLine } from '../../output/sanitize.js'
import type { ServeArguments } from './serve-options.js'

/** HMAC keys shorter than this are refused (the server's codec wants 32+ bytes). */
const minimumKeyBytes = 32

function readFileFor(flag: string, path: string, io: Io): string {
  try {
    return readFileSync(resolve(io.cwd, path), 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const reason = code === 'ENOENT' ? 'no such file' : ((error as Error).message ?? String(error))
    throw new CliError('usage', `${flag} ${path}: cannot read it: ${reason}`)
  }
}

/**
 * The requestState signing key: the file's text less one trailing newline, or the variable's
 * value; undefined when neither is given (then the store holds one, or each process makes its own).
 */
export function requestStateKey(args: ServeArguments, io: Io): string | undefined {
  const file = args.requestStateKeyFile
  const from = file === undefined ? '$MCP_KIT_REQUEST_STATE_KEY' : `--request-state-key-file ${file}`
  const key =
    file === undefined
      ? io.env.MCP_KIT_REQUEST_STATE_KEY || undefined
      : readFileFor('--request-state-key-file', file, io).replace(/\r?\n$/, '')
  if (key === undefined) return undefined
  if (Buffer.byteLength(key) < minimumKeyBytes) {
    throw new CliError(
      'usage',
      `${from}: the key must be at least ${minimumKeyBytes} bytes (e.g. openssl rand -base64 48)`,
    )
  }
  return key
}

/** The CA certificates of `--store-ca` / $MCP_KIT_STORE_CA, and where they came from. */
function storeCa(args: ServeArguments, io: Io, url: string): { pem: string; from: string } | undefined {
  const path = args.storeCa ?? (io.env.MCP_KIT_STORE_CA || undefined)
  if (path === undefined) return undefined
  const from = args.storeCa === undefined ? `$MCP_KIT_STORE_CA (${path})` : `--store-ca ${path}`
  if (!/^rediss(-cluster)?:/i.test(url))
    throw new CliError('usage', `${from} is for a TLS store: use rediss://… or rediss-cluster://…`)
  const pem = readFileFor(from, path, io)
  if (!pem.includes('-----BEGIN CERTIFICATE-----'))
    throw new CliError('usage', `${from}: expected PEM certificates (-----BEGIN CERTIFICATE-----)`)
  return { pem, from }
}

/** What to do about a store that refused this instance, by the server's `details.problem`. */
function advice(problem: unknown, ca: { from: string } | undefined): string {
  if (problem === 'untrusted') {
    return ca === undefined
      ? '; give the CA that signed it with --store-ca FILE (or $MCP_KIT_STORE_CA)'
      : `; it is not signed by a CA in ${ca.from}, or not for this host`
  }
  if (problem === 'permissions') return '; see the ACL the store needs in the @mcp-kit/server README'
  return ''
}

/** `--store redis://…` or `redis-cluster://…` (or $MCP_KIT_STORE): state shared with other instances; unusable is exit 3. */
export async function openStore(args: ServeArguments, io: Io): Promise<Store | undefined> {
  const url = args.store ?? (io.env.MCP_KIT_STORE === '' ? undefined : io.env.MCP_KIT_STORE)
  if (url === undefined || url === 'memory') {
    if (args.storePrefix !== undefined) throw new CliError('usage', '--store-prefix needs --store redis://…')
    if (args.storeCa !== undefined) throw new CliError('usage', '--store-ca needs --store rediss://…')
    return undefined
  }
  const { redisStore, ServerError } = await import('@mcp-kit/server')
  const { redactedUrl, redisUrlProblem } = await import('@mcp-kit/server/internal')
  const problem = redisUrlProblem(url)
  if (problem !== undefined) {
    const from = args.store === undefined ? '$MCP_KIT_STORE' : '--store'
    throw new CliError('usage', `${from} ${JSON.stringify(redactedUrl(url))}: ${problem}`)
  }
  if (/^rediss?-cluster:/i.test(url) && args.storePrefix !== undefined && /[{}]/.test(args.storePrefix))
    throw new CliError('usage', "--store-prefix: a cluster store's prefix may not hold { or } (hash tags)")
  const ca = storeCa(args, io, url)
  try {
    return await redisStore({
      url,
      prefix: args.storePrefix,
      ...(ca === undefined ? {} : { ca: ca.pem }),
      onError: (error) => writeDiagnostic(io, error.message),
      onWarning: (message) => io.stderr.write(`mcp-kit: warning: ${sanitizeLine(message)}\n`),
    })
  } catch (error) {
    const details = ServerError.isInstance(error) ? error.details : undefined
    throw new CliError('connect_failed', `${(error as Error).message}${advice(details?.problem, ca)}`, {
      cause: error,
    })
  }
}
