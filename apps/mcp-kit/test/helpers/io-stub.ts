// An Io for in-process tests of the CLI's layers: stdout and stderr collected as text, a home of
// its own (profiles, logins, the era cache), no terminal, and an abort controller to interrupt.

import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import type { Io } from '../../src/base/io.js'
import { connectionFlags } from '../../src/session/connection-flags.js'

export interface IoStub extends Io {
  out(): string
  err(): string
  interrupt(): void
}

export function ioStub(overrides: Partial<Io> = {}): IoStub {
  const home = mkdtempSync(join(tmpdir(), 'mcp-kit-io-'))
  const collect = () => {
    const stream = new PassThrough()
    let text = ''
    stream.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
    return { stream, text: () => text }
  }
  const [stdout, stderr] = [collect(), collect()]
  const controller = new AbortController()
  return {
    stdin: new PassThrough(),
    stdout: stdout.stream,
    stderr: stderr.stream,
    env: {
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_CACHE_HOME: join(home, '.cache'),
      PATH: process.env.PATH,
    },
    cwd: home,
    stderrIsTTY: false,
    stdoutIsTTY: false,
    signal: controller.signal,
    ...overrides,
    out: stdout.text,
    err: stderr.text,
    interrupt: () => controller.abort(),
  }
}

/** The connection flags as yargs gives them when none is typed (their defaults). */
export function defaultConnectionArguments(): Record<string, unknown> {
  const args: Record<string, unknown> = {}
  for (const [name, flag] of Object.entries(connectionFlags)) if ('default' in flag) args[name] = flag.default
  return args
}
