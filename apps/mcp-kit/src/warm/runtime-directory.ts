// Where the warm-session daemon listens: a Unix socket in a directory only this user can open
// ($XDG_RUNTIME_DIR/mcp-kit, else mcp-kit-<uid> in the temp directory). Node cannot ask a socket
// who is at its other end, so the directory is the guard: before every use it must be a real
// directory (not a link), owned by this user, with no permissions for anyone else. Anything else
// is refused, never repaired: someone else may have made it.

import { type BigIntStats, lstatSync, mkdirSync, type Stats } from 'node:fs'
import { tmpdir } from 'node:os'
import { isAbsolute, join } from 'node:path'
import { CliError } from '../base/errors.js'

export interface RuntimePaths {
  directory: string
  socket: string
  log: string
}

function currentUid(): number {
  if (typeof process.getuid !== 'function')
    throw new CliError('usage', '--keep-alive needs Unix sockets, which this platform does not offer')
  return process.getuid()
}

function refuse(directory: string, why: string): CliError {
  return new CliError(
    'connect_failed',
    `refusing to use ${directory} for warm sessions: ${why}. Remove it, or set XDG_RUNTIME_DIR to a directory of your own`,
    { details: { directory } },
  )
}

/** Checks a directory the daemon's socket may live in; throws when another user could reach it. */
export function checkRuntimeDirectory(directory: string, stat: Stats, uid: number): void {
  if (stat.isSymbolicLink()) throw refuse(directory, 'it is a symbolic link')
  if (!stat.isDirectory()) throw refuse(directory, 'it is not a directory')
  if (stat.uid !== uid) throw refuse(directory, `it belongs to uid ${stat.uid}, not to you (uid ${uid})`)
  if ((stat.mode & 0o077) !== 0)
    throw refuse(directory, `other users may open it (mode ${(stat.mode & 0o777).toString(8)}, needs 700)`)
}

/** The daemon's directory, made (mode 0700) when missing and checked either way, and its files. */
export function runtimePaths(env: Readonly<Record<string, string | undefined>>): RuntimePaths
/** Without `create`: undefined when the directory does not exist (so no daemon runs). */
export function runtimePaths(
  env: Readonly<Record<string, string | undefined>>,
  options: { create: false },
): RuntimePaths | undefined
export function runtimePaths(
  env: Readonly<Record<string, string | undefined>>,
  options: { create: boolean } = { create: true },
): RuntimePaths | undefined {
  const uid = currentUid()
  const runtime = env.XDG_RUNTIME_DIR
  const directory =
    runtime !== undefined && isAbsolute(runtime)
      ? join(runtime, 'mcp-kit')
      : join(env.TMPDIR && isAbsolute(env.TMPDIR) ? env.TMPDIR : tmpdir(), `mcp-kit-${uid}`)
  try {
    if (options.create) mkdirSync(directory, { mode: 0o700 })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'EEXIST') {
      throw new CliError('connect_failed', `cannot create ${directory} for warm sessions: ${code}`, {
        cause: error,
      })
    }
  }
  let stat: Stats
  try {
    stat = lstatSync(directory)
  } catch (error) {
    if (!options.create && (error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  checkRuntimeDirectory(directory, stat, uid)
  return { directory, socket: join(directory, 'daemon.sock'), log: join(directory, 'daemon.log') }
}

/** Checks the socket file before connecting: a socket, this user's. Undefined when there is none. */
export function checkSocket(path: string): 'absent' | 'present' {
  let stat: BigIntStats
  try {
    stat = statSocket(path)
  } catch {
    return 'absent'
  }
  const uid = currentUid()
  if (!stat.isSocket()) throw refuse(path, 'it is not a socket')
  if (stat.uid !== BigInt(uid)) throw refuse(path, `it belongs to uid ${stat.uid}, not to you (uid ${uid})`)
  return 'present'
}

/**
 * lstat of a socket, as BigInt stats: on Node 20, a plain stat of a socket leaves its mode in the
 * buffer that the module loader's realpath reads next, and the next import of a package behind a
 * symbolic link (pnpm's layout) then fails to resolve.
 */
export function statSocket(path: string): BigIntStats {
  return lstatSync(path, { bigint: true })
}
