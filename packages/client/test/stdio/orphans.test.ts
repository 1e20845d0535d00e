// @module-tag integration
// Servers and what they start never outlive the client: a child that left the server's process
// group and session is ended by close(), and when the client's process dies without cleaning up
// (SIGKILL), its watchdog ends the server trees. Real processes throughout; each test checks, by
// the pids the fixtures record, that nothing is left.

import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fixtureServers } from '@mcp-kit/fixtures'
import { describe, expect, it } from 'vitest'
import { connect, type ServerSpec } from '../../src/index.js'
import { fixtureFile, groupAlive, pidFile, processAlive, watchdogsOf } from '../helpers/processes.js'

const detachedChild = fixtureFile('detached-child.js')

function server(path: string, ...args: string[]): ServerSpec {
  return { transport: 'stdio', command: process.execPath, args: [path, ...args] }
}

describe.skipIf(process.platform !== 'linux')('a child in its own session (setsid)', () => {
  it('close() ends it, though it is outside the server group', async () => {
    const pids = pidFile()
    try {
      const diagnostics: string[] = []
      const session = await connect(server(detachedChild), {
        env: { FIXTURE_PID_FILE: pids.path },
        shutdownGraceMs: 300,
        onDiagnostic: (message) => diagnostics.push(message),
      })
      await expect.poll(() => pids.running().length).toBe(2)
      const [leader, child] = pids.pids() as [number, number]
      expect(leader).toBe(session.process?.pid)
      await session.close()
      expect(groupAlive(leader)).toBe(false)
      expect(processAlive(child)).toBe(false)
      expect(diagnostics.join('\n')).toContain(
        `processes the server started are still running (pids ${child})`,
      )
    } finally {
      pids.remove()
    }
  })

  it('close() ends it after the server exited and orphaned it, SIGKILL if it ignores SIGTERM', async () => {
    const pids = pidFile()
    try {
      const session = await connect(server(detachedChild, '--exit-after=700', '--ignore-sigterm'), {
        env: { FIXTURE_PID_FILE: pids.path },
        shutdownGraceMs: 300,
      })
      await expect.poll(() => pids.running().length).toBe(2)
      const child = pids.pids()[1] as number
      await session.closed // the server exited: nothing links the child to it any more
      await session.close()
      expect(processAlive(child)).toBe(false)
      expect(pids.running()).toEqual([])
    } finally {
      pids.remove()
    }
  })
})

describe.skipIf(process.platform !== 'linux')('the watchdog', () => {
  it('is one small process per server, gone once its session is closed', async () => {
    const first = await connect(server(fixtureServers.basic))
    const [firstWatchdog] = watchdogsOf(process.pid)
    const second = await connect(server(fixtureServers.basic))
    expect(watchdogsOf(process.pid)).toHaveLength(2)
    await first.close()
    await expect.poll(() => processAlive(firstWatchdog as number)).toBe(false)
    expect(watchdogsOf(process.pid)).toHaveLength(1)
    await second.close()
    await expect.poll(() => watchdogsOf(process.pid)).toEqual([])
  })

  it('shows a short command line in ps: its script comes through its environment, not its arguments', async () => {
    const session = await connect(server(fixtureServers.basic))
    try {
      const [watchdog] = watchdogsOf(process.pid)
      const commandLine = readFileSync(`/proc/${watchdog}/cmdline`, 'utf8').split('\0').join(' ').trim()
      expect(commandLine).toMatch(
        /^\/bin\/sh -c eval "\$MCP_KIT_WATCHDOG_SCRIPT" mcp-kit-watchdog \d+ proc \S+$/,
      )
      expect(commandLine.length).toBeLessThan(120)
    } finally {
      await session.close()
    }
  })

  it('is not started with watchdog: false', async () => {
    const session = await connect(server(fixtureServers.basic), { watchdog: false })
    expect(watchdogsOf(process.pid)).toEqual([])
    await session.close()
  })

  // A host process holds the session and is killed with SIGKILL in the middle of a call.
  const distEntry = new URL('../../dist/index.js', import.meta.url).href
  const host = `
    import { connect } from ${JSON.stringify(distEntry)}
    const [args, pidFile] = [JSON.parse(process.argv[1]), process.argv[2]]
    const session = await connect({ transport: 'stdio', command: process.execPath, args }, {
      env: { FIXTURE_PID_FILE: pidFile },
      onStderr: (line) => line.includes('slow call started') && process.stdout.write('calling\\n'),
    })
    await session.callTool('slow', {}, { timeoutMs: 120000 })
  `

  async function killHostMidCall(args: string[], processes: number): Promise<void> {
    const pids = pidFile()
    const child = spawn(
      process.execPath,
      ['--input-type=module', '-e', host, JSON.stringify(args), pids.path],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    try {
      let output = ''
      child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text))
      await expect.poll(() => output, { timeout: 15_000 }).toContain('calling')
      await expect.poll(() => pids.running().length).toBe(processes)
      const watchdogs = watchdogsOf(child.pid as number)
      expect(watchdogs).toHaveLength(1)
      child.kill('SIGKILL')
      await expect.poll(() => pids.running(), { timeout: 5_000, interval: 50 }).toEqual([])
      await expect.poll(() => processAlive(watchdogs[0] as number)).toBe(false)
    } finally {
      child.kill('SIGKILL')
      pids.remove()
    }
  }

  it('ends a server that ignores stdin EOF and SIGTERM when its host is SIGKILLed', async () => {
    await killHostMidCall([fixtureServers.ignoreEof, '--ignore-sigterm'], 1)
  })

  it("ends the server's child in its own session when its host is SIGKILLed", async () => {
    await killHostMidCall([detachedChild, '--ignore-sigterm'], 2)
  })
})
