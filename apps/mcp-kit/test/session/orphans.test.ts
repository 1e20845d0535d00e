// @module-tag integration
// The CLI's servers never outlive it: killed with SIGKILL in the middle of a call (no chance to
// clean up), its watchdog ends the server tree within seconds, a server that ignores stdin EOF
// and SIGTERM and a child that left for its own session included; and a normal exit leaves no
// such child behind either. The fixtures write their pids to a file; the tests check those.

import { spawn } from 'node:child_process'
import { dirname, join } from 'node:path'
import { processRunning } from '@mcp-kit/client/internal'
import { fixtureServers } from '@mcp-kit/fixtures'
import { describe, expect, it } from 'vitest'
import { binPath, pidFile, runCli } from '../helpers/helpers.js'

const detachedChild = join(dirname(fixtureServers.basic), 'detached-child.js')

function killLeftovers(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {}
  }
}

/** Starts `mcp-kit cat <reference>` on a slow call, SIGKILLs it once the server tree is up, checks the tree ends. */
async function killCliMidCall(reference: string, processes: number): Promise<void> {
  const pids = pidFile()
  const cli = spawn(process.execPath, [binPath, 'cat', reference, '--verbose', '--env', pids.flag], {
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  try {
    let stderr = ''
    cli.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text))
    await expect.poll(() => stderr, { timeout: 15_000 }).toContain('[server] fixture: slow call started')
    await expect.poll(() => pids.running().length).toBe(processes)
    cli.kill('SIGKILL')
    await expect.poll(() => pids.running(), { timeout: 5_000, interval: 50 }).toEqual([])
  } finally {
    cli.kill('SIGKILL')
    killLeftovers(pids.running())
    pids.remove()
  }
}

describe.skipIf(process.platform !== 'linux')('mcp-kit killed with SIGKILL leaves no server running', () => {
  it('a server that ignores stdin EOF and SIGTERM', async () => {
    await killCliMidCall(`mcp+node://${fixtureServers.ignoreEof}?tool=slow&arg=--ignore-sigterm`, 1)
  })

  it("a server's child in its own process group and session (setsid), ignoring SIGTERM", async () => {
    await killCliMidCall(`mcp+node://${detachedChild}?tool=slow&arg=--ignore-sigterm`, 2)
  })
})

describe.skipIf(process.platform !== 'linux')('a normal exit', () => {
  it("ends the server's child in its own session too", async () => {
    const pids = pidFile()
    try {
      const result = await runCli([
        'cat',
        `mcp+node://${detachedChild}?tool=echo&message=hi`,
        '--env',
        pids.flag,
      ])
      expect(result.code).toBe(0)
      expect(pids.pids()).toHaveLength(2)
      expect(pids.pids().filter(processRunning)).toEqual([])
    } finally {
      killLeftovers(pids.running())
      pids.remove()
    }
  })
})
