// Where OAuth credentials live: one JSON file per user (0600, in a 0700 directory), written under a lock
// and replaced atomically so concurrent refreshes cannot corrupt it; or in memory, for tests.

import { randomBytes } from 'node:crypto'
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'

export interface StoredClient {
  client_id: string
  client_secret?: string
  [key: string]: unknown
}

export interface StoredTokens {
  access_token: string
  token_type?: string
  refresh_token?: string
  expires_in?: number
  scope?: string
  id_token?: string
  [key: string]: unknown
}

export interface TokenEntry {
  issuer: string | undefined
  tokens: StoredTokens
  /** When the tokens were saved (ms since the epoch): expires_in counts from here. */
  savedAt: number
}

/**
 * What the credentials file holds: client registrations keyed by authorization server (issuer),
 * and tokens keyed by MCP server URL, each stamped with the issuer that granted them. Under
 * `pre-registered:<client_id>` is the authorization server (`issuer`) a pre-registered client's
 * secret was first sent to, which it is sent to alone.
 */
export interface CredentialData {
  version: 1
  clients: Record<string, StoredClient>
  tokens: Record<string, TokenEntry>
}

export interface CredentialStore {
  /** Reads the current data (fresh from disk for a file store). */
  read(): CredentialData
  /** Changes the data under the store's lock: read, apply, write back. */
  update(change: (data: CredentialData) => void): void
  /** Where the credentials are, for messages (undefined: memory). */
  readonly path: string | undefined
}

const empty = (): CredentialData => ({ version: 1, clients: {}, tokens: {} })

/** `$MCP_KIT_HOME/credentials.json`, else `$XDG_CONFIG_HOME/mcp-kit/…`, else `~/.config/mcp-kit/…`. */
export function defaultCredentialsPath(
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  const directory =
    env.MCP_KIT_HOME ?? join(env.XDG_CONFIG_HOME ?? join(env.HOME ?? homedir(), '.config'), 'mcp-kit')
  return join(directory, 'credentials.json')
}

/** A credential store in memory, for this process only. */
export function memoryCredentialStore(): CredentialStore {
  let data = empty()
  return {
    path: undefined,
    read: () => structuredClone(data),
    update(change) {
      const next = structuredClone(data)
      change(next)
      data = next
    },
  }
}

const staleLockMs = 30_000

function sleepSync(milliseconds: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, milliseconds)
}

/** A lock file created exclusively; a lock older than 30 s is taken to be left over and broken. */
function withLock<T>(path: string, run: () => T): T {
  const lock = `${path}.lock`
  for (let attempt = 0; ; attempt++) {
    try {
      closeSync(openSync(lock, 'wx', 0o600))
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      try {
        if (Date.now() - statSync(lock).mtimeMs > staleLockMs) unlinkSync(lock)
      } catch {
        // Gone meanwhile: try again.
      }
      if (attempt > 500) throw new Error(`the credentials file is locked (${lock})`)
      sleepSync(10)
    }
  }
  try {
    return run()
  } finally {
    try {
      unlinkSync(lock)
    } catch {
      // Already gone.
    }
  }
}

function load(path: string): CredentialData {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<CredentialData>
    return { version: 1, clients: parsed.clients ?? {}, tokens: parsed.tokens ?? {} }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return empty()
    throw new Error(`the credentials file ${path} is not readable JSON: ${(error as Error).message}`)
  }
}

/** A credential store in a JSON file (mode 0600, written atomically under a lock): the CLI's by default. */
export function fileCredentialStore(path: string = defaultCredentialsPath()): CredentialStore {
  return {
    path,
    read: () => load(path),
    update(change) {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
      withLock(path, () => {
        const data = load(path)
        change(data)
        const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
        writeFileSync(temporary, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 })
        renameSync(temporary, path)
      })
    },
  }
}
