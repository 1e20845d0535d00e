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
// Each test process has its own tmux server (-L), so test files running side by side never share one.
const socket = ['-L', `mcp-kit-test-${process.pid}`]

// A tmux server exits when its last session ends; a new session asked for in that moment reaches
// the dying server and fails with "server exited unexpectedly" (seen in CI). Asking again starts a
// fresh server.
function tmux(args: string[]): void {
  for (let attempt = 1; ; attempt++) {
    try {
      execFileSync('tmux', [...socket, ...args], { stdio: ['ignore', 'ignore', 'pipe'] })
      return
    } catch (error) {
      const said = String((error as { stderr?: Buffer }).stderr ?? '')
      if (attempt >= 5 || !/server exited unexpectedly|lost server|no server running/.test(said)) throw error
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100 * attempt)
    }
  }
}

export function openTerminal(
  command: string,
  options: { env?: Record<string, string>; width?: number; height?: number } = {},
): Terminal {
  const session = `mcp-kit-${process.pid}-${++sessions}`
  // -e: the tmux server may be older than this test, with another environment.
  const environment = Object.entries(options.env ?? {}).flatMap(([name, value]) => ['-e', `${name}=${value}`])
  tmux([
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
    screen: () =>
      execFileSync('tmux', [...socket, 'capture-pane', '-p', '-t', session], { encoding: 'utf8' }),
    type: (text) => execFileSync('tmux', [...socket, 'send-keys', '-t', session, '-l', text]),
    press: (...keys) => execFileSync('tmux', [...socket, 'send-keys', '-t', session, ...keys]),
    close: () => {
      try {
        execFileSync('tmux', [...socket, 'kill-session', '-t', session], { stdio: 'ignore' })
      } catch {
        // Already gone: the command ended and took the session with it.
      }
    },
  }
}
