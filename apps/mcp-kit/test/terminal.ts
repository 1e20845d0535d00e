// A real terminal for tests: a tmux session running one command, what its screen shows, and keys
// typed into it. tmux must be installed (.ci/run installs it).

import { execFileSync } from 'node:child_process'

export interface Terminal {
  /** The visible screen, as text. */
  screen(): string
  /** Types text as it is (no key names). */
  type(text: string): void
  /** Presses keys by tmux name: 'Enter', 'Tab', 'C-d', 'Up'. */
  press(...keys: string[]): void
  /** Ends the session (and the command in it). */
  close(): void
}

let sessions = 0

export function openTerminal(
  command: string,
  options: { env?: Record<string, string>; width?: number; height?: number } = {},
): Terminal {
  const session = `mcp-kit-${process.pid}-${++sessions}`
  // -e: the tmux server may be older than this test, with another environment.
  const environment = Object.entries(options.env ?? {}).flatMap(([name, value]) => ['-e', `${name}=${value}`])
  execFileSync('tmux', [
    'new-session',
    '-d',
    '-s',
    session,
    '-x',
    String(options.width ?? 200),
    '-y',
    String(options.height ?? 50),
    ...environment,
    command,
  ])
  return {
    screen: () => execFileSync('tmux', ['capture-pane', '-p', '-t', session], { encoding: 'utf8' }),
    type: (text) => execFileSync('tmux', ['send-keys', '-t', session, '-l', text]),
    press: (...keys) => execFileSync('tmux', ['send-keys', '-t', session, ...keys]),
    close: () => {
      try {
        execFileSync('tmux', ['kill-session', '-t', session], { stdio: 'ignore' })
      } catch {
        // Already gone: the command ended and took the session with it.
      }
    },
  }
}
