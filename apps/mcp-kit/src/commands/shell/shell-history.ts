// The history of `mcp-kit shell`: one file per user in the state directory
// ($XDG_STATE_HOME/mcp-kit, else ~/.local/state/mcp-kit), mode 0600 since lines carry arguments.
// A line that starts with a blank is not kept (as in bash with HISTCONTROL=ignorespace).

import { appendFileSync, mkdirSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'

/** The most lines kept in memory and offered with the Up key. */
export const historySize = 1000

export function historyPath(env: Readonly<Record<string, string | undefined>>): string {
  const state = env.XDG_STATE_HOME || join(env.HOME || homedir(), '.local', 'state')
  return join(state, 'mcp-kit', 'shell_history')
}

/** The saved lines, newest first (as readline wants them). */
export function loadHistory(path: string): string[] {
  try {
    return readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .slice(-historySize)
      .reverse()
  } catch {
    return []
  }
}

/** Appends a line; a history that cannot be written is no reason to stop the shell. */
export function rememberLine(path: string, line: string): void {
  if (line.trim() === '' || /^\s/.test(line) || line.includes('\n')) return
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
    appendFileSync(path, `${line}\n`, { mode: 0o600 })
  } catch {
    // Read-only home, full disk: the session goes on without it.
  }
}
