// The user's secret store: one JSON file, mode 0600 in a 0700 directory, beside the OAuth
// credentials ($MCP_KIT_HOME, else $XDG_CONFIG_HOME/mcp-kit, else ~/.config/mcp-kit). Profiles
// refer to its entries as `${secret:KEY}`; it is read only when a profile does. Writes go to a
// temporary file renamed over the old one, so a reader never sees half a file, and read, change
// and write back under a lock file (`secrets.json.lock`), so two writers at once keep both
// changes.

import { randomBytes } from 'node:crypto'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { ProfileError } from '../errors.js'
import { nodeFileSystem, type ProfileFileSystem } from './file-system.js'

export interface SecretStoreOptions {
  env?: Readonly<Record<string, string | undefined>>
  fs?: ProfileFileSystem
  /** The store's file (default: secretsPath(env)). */
  secretsPath?: string
}

/** `$MCP_KIT_HOME/secrets.json`, else `$XDG_CONFIG_HOME/mcp-kit/…`, else `~/.config/mcp-kit/…`. */
export function secretsPath(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const directory =
    env.MCP_KIT_HOME || join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'mcp-kit')
  return join(directory, 'secrets.json')
}

function storePath(options: SecretStoreOptions): string {
  return options.secretsPath ?? secretsPath(options.env ?? process.env)
}

/** Every secret in the store, by key (an empty store when there is no file yet). */
export async function readSecrets(options: SecretStoreOptions = {}): Promise<Record<string, string>> {
  const fs = options.fs ?? nodeFileSystem
  const path = storePath(options)
  if ((await fs.kind(path)) === undefined) return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(await fs.readFile(path))
  } catch (error) {
    throw new ProfileError('profile_invalid', `the secret store ${path} is not readable JSON`, {
      details: { file: path },
      cause: error,
    })
  }
  const secrets = (parsed as { secrets?: unknown } | null)?.secrets
  const result: Record<string, string> = {}
  if (typeof secrets === 'object' && secrets !== null) {
    for (const [key, value] of Object.entries(secrets)) if (typeof value === 'string') result[key] = value
  }
  return result
}

/** Sets (a string) or removes (undefined) secrets, keeping the others. */
export async function writeSecrets(
  changes: Readonly<Record<string, string | undefined>>,
  options: SecretStoreOptions = {},
): Promise<string> {
  const fs = options.fs ?? nodeFileSystem
  const path = storePath(options)
  const cannotWrite = (error: unknown) =>
    new ProfileError(
      'profile_invalid',
      `cannot write the secret store ${path}: ${(error as Error).message}`,
      {
        details: { file: path },
        cause: error,
      },
    )
  let release: (() => Promise<void>) | undefined
  try {
    await fs.mkdir(dirname(path))
    release = await fs.lock?.(`${path}.lock`)
  } catch (error) {
    throw cannotWrite(error)
  }
  try {
    // Read under the lock: a change another writer made meanwhile is kept.
    const secrets = await readSecrets(options)
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined) delete secrets[key]
      else secrets[key] = value
    }
    const sorted = Object.fromEntries(
      Object.entries(secrets).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    )
    const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`
    try {
      await fs.writeFile(temporary, `${JSON.stringify({ version: 1, secrets: sorted }, null, 2)}\n`)
      await fs.rename(temporary, path)
    } catch (error) {
      await fs.remove(temporary).catch(() => {})
      throw cannotWrite(error)
    }
  } finally {
    await release?.()
  }
  return path
}
