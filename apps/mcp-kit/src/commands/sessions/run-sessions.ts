// Talks to the warm-session daemon (never starting one): lists its sessions — id, reference,
// server pid, age, idle time, calls, memory — or stops the ones named.

import { CliError } from '../../base/errors.js'
import { exitCodes } from '../../base/exit-codes.js'
import { type Io, writeLine } from '../../base/io.js'
import { sanitizeLine } from '../../output/sanitize.js'
import { writeJson } from '../../output/write-records.js'
import type { WarmSessionInfo } from '../../warm/warm-sessions.js'

export interface SessionsArguments {
  action: 'list' | 'stop'
  target?: string
  all?: boolean
  format: 'text' | 'json'
}

interface DaemonInfo {
  pid: number
  socket: string
}

function duration(milliseconds: number): string {
  const seconds = Math.round(milliseconds / 1000)
  if (seconds < 60) return `${seconds}s`
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`
  return `${Math.floor(seconds / 3600)}h${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}m`
}

function memory(bytes: number | null): string {
  if (bytes === null) return '-'
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`
}

function table(sessions: readonly WarmSessionInfo[]): string {
  const rows = [['ID', 'PID', 'AGE', 'IDLE', 'STOPS IN', 'CALLS', 'MEMORY', 'REFERENCE']]
  for (const session of sessions) {
    rows.push([
      session.id,
      session.pid === null ? '-' : String(session.pid),
      duration(session.ageMs),
      session.users > 0 ? `in use (${session.users})` : duration(session.idleMs),
      session.stopsInMs === null ? '-' : duration(session.stopsInMs),
      String(session.calls),
      memory(session.memoryBytes),
      sanitizeLine(session.reference),
    ])
  }
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? []
  return rows
    .map((row) =>
      row
        .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
        .join('  '),
    )
    .join('\n')
}

export async function runSessions(args: SessionsArguments, io: Io): Promise<number> {
  const { askDaemon } = await import('../../warm/warm-client.js')
  if (args.action === 'list') {
    if (args.target !== undefined) throw new CliError('usage', "'sessions list' takes no argument")
    const answer = (await askDaemon({ kind: 'list' }, io.env)) as
      | { daemon: DaemonInfo; sessions: WarmSessionInfo[] }
      | undefined
    if (args.format === 'json') {
      await writeJson(io, answer ?? { daemon: null, sessions: [] }, 2)
      return exitCodes.ok
    }
    if (answer === undefined || answer.sessions.length === 0) {
      await writeLine(io.stdout, 'no warm sessions (start one with --keep-alive <duration> on a command)')
      return exitCodes.ok
    }
    await writeLine(io.stdout, table(answer.sessions))
    return exitCodes.ok
  }
  if ((args.target === undefined) === (args.all !== true))
    throw new CliError(
      'usage',
      "say which sessions to stop: 'sessions stop <id|pid|reference>' or 'sessions stop --all'",
    )
  const answer = (await askDaemon(
    args.all ? { kind: 'stop', all: true } : { kind: 'stop', target: args.target },
    io.env,
  )) as { daemon: DaemonInfo; stopped: WarmSessionInfo[]; daemonStopped: boolean } | undefined
  const stopped = answer?.stopped ?? []
  if (args.format === 'json') {
    await writeJson(io, answer ?? { daemon: null, stopped: [], daemonStopped: false }, 2)
  } else if (stopped.length > 0) {
    for (const session of stopped)
      await writeLine(
        io.stdout,
        sanitizeLine(`stopped ${session.id} (pid ${session.pid ?? '-'}) ${session.reference}`),
      )
  }
  if (stopped.length === 0 && args.target !== undefined) {
    throw new CliError(
      'usage',
      `no warm session matches ${JSON.stringify(args.target)} (see 'mcp-kit sessions')`,
    )
  }
  return exitCodes.ok
}
