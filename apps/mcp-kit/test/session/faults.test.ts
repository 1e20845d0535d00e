// @module-tag integration
// Faults through the built CLI: each test asserts the exit code, a time bound (generous: it
// proves "no hang", it is not a benchmark), the message, and that no process is left behind.

import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixtureServers } from '@mcp-kit/fixtures'
import { afterAll, describe, expect, it } from 'vitest'
import { pidFile, records, runCli } from '../helpers/helpers.js'

const scratch = mkdtempSync(join(tmpdir(), 'mcp-kit-faults-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

async function withPids<T>(run: (pids: ReturnType<typeof pidFile>) => Promise<T>): Promise<T> {
  const pids = pidFile()
  try {
    const result = await run(pids)
    expect(pids.pids().length, 'the fixture recorded its pid').toBeGreaterThan(0)
    expect(pids.running(), 'processes left running').toEqual([])
    return result
  } finally {
    pids.remove()
  }
}

describe('server faults through the CLI', () => {
  it('crash during a call: exit 3, the exit code and stderr in the message', async () => {
    await withPids(async (pids) => {
      const result = await runCli([
        'cat',
        `mcp+node://${fixtureServers.crash}?tool=crash`,
        '--env',
        pids.flag,
      ])
      expect(result.code).toBe(3)
      expect(result.milliseconds).toBeLessThan(10_000)
      expect(result.stderr).toMatch(
        /^mcp-kit: tools\/call 'crash': the server exited with code 3 during the request; its last stderr lines:\n {2}fixture: about to fail\n {2}fixture: segmentation fault \(pretend\)\n$/,
      )
      expect(records(result.stdout)).toEqual([
        {
          error: {
            code: 'server_exited',
            message: expect.any(String),
            details: expect.objectContaining({ exitCode: 3 }),
          },
        },
      ])
    })
  })

  it('crash at start: exit 3 with the server stderr', async () => {
    const result = await runCli(['inspect', `mcp+node://${fixtureServers.crash}?arg=--at-start`])
    expect(result.code).toBe(3)
    expect(result.stderr).toContain('exited with code 7 before it finished initializing')
    expect(result.stderr).toContain('fixture: fatal: missing API key')
  })

  it('never answers a call: exit 4 after --timeout, and the server is shut down', async () => {
    await withPids(async (pids) => {
      const result = await runCli([
        'cat',
        `mcp+node://${fixtureServers.basic}?tool=hang`,
        '--timeout',
        '0.5',
        '--env',
        pids.flag,
      ])
      expect(result.code).toBe(4)
      expect(result.milliseconds).toBeLessThan(10_000)
      expect(result.stderr).toBe("mcp-kit: tools/call 'hang': no response within 0.5 s (--timeout)\n")
    })
  })

  it('never answers initialize: exit 4 after --connect-timeout', async () => {
    await withPids(async (pids) => {
      const result = await runCli([
        'inspect',
        `mcp+node://${fixtureServers.mute}`,
        '--connect-timeout',
        '0.5',
        '--env',
        pids.flag,
      ])
      expect(result.code).toBe(4)
      expect(result.milliseconds).toBeLessThan(10_000)
      expect(result.stderr).toMatch(/did not finish initializing within 0\.5 s \(--connect-timeout\)\n$/)
    })
  })

  it('garbage on stdout is skipped; --verbose reports it', async () => {
    await withPids(async (pids) => {
      const quiet = await runCli([
        'cat',
        `mcp+node://${fixtureServers.garbage}?tool=echo&message=ok`,
        '--env',
        pids.flag,
      ])
      expect(quiet.code).toBe(0)
      expect(records(quiet.stdout)).toEqual([{ type: 'text', text: 'ok' }])
      expect(quiet.stderr).toBe('')
      const verbose = await runCli([
        'cat',
        `mcp+node://${fixtureServers.garbage}?tool=echo&message=ok`,
        '--verbose',
        '--env',
        pids.flag,
      ])
      expect(verbose.stderr).toContain(
        "mcp-kit: skipped a line on the server's stdout (not JSON): Starting server v1.2.3...",
      )
    })
  })

  it('a server that only prints garbage: exit 4, not a crash', async () => {
    const result = await runCli([
      'inspect',
      `mcp+node://${fixtureServers.garbage}?arg=--only`,
      '--connect-timeout',
      '0.5',
    ])
    expect(result.code).toBe(4)
  })

  it('a server that ignores stdin EOF does not hang the CLI', async () => {
    await withPids(async (pids) => {
      const result = await runCli([
        'cat',
        `mcp+node://${fixtureServers.ignoreEof}?tool=echo&message=bye`,
        '--env',
        pids.flag,
      ])
      expect(result.code).toBe(0)
      expect(result.milliseconds).toBeLessThan(10_000)
      expect(records(result.stdout)).toEqual([{ type: 'text', text: 'bye' }])
    })
  })

  it('a wrapper that spawns the server as a grandchild leaves nothing behind', async () => {
    await withPids(async (pids) => {
      const result = await runCli([
        'cat',
        `mcp+node://${fixtureServers.wrapper}?arg=${encodeURIComponent(fixtureServers.ignoreEof)}&tool=echo&message=wrapped`,
        '--env',
        pids.flag,
      ])
      expect(result.code).toBe(0)
      expect(records(result.stdout)).toEqual([{ type: 'text', text: 'wrapped' }])
      expect(pids.pids().length).toBe(2) // the wrapper and its child
    })
  })

  it('a response over --max-message-size: exit 1 with a clear message', async () => {
    await withPids(async (pids) => {
      const result = await runCli([
        'cat',
        `mcp+node://${fixtureServers.huge}?tool=huge&bytes=2000000`,
        '--max-message-size',
        '1MiB',
        '--env',
        pids.flag,
      ])
      expect(result.code).toBe(1)
      expect(result.stderr).toMatch(
        /a message from the server is larger than the 1 MiB limit .*--max-message-size/,
      )
    })
  })

  it('slow progress keeps a call alive past --timeout; the status line stays off pipes', async () => {
    const result = await runCli([
      'cat',
      `mcp+node://${fixtureServers.basic}?tool=progress&steps=4&step_ms=300`,
      '--timeout',
      '0.6',
    ])
    expect(result.code).toBe(0)
    expect(records(result.stdout)).toEqual([{ type: 'text', text: 'done after 4 steps' }])
    expect(result.stderr).toBe('')
  })

  it('a command that does not exist: exit 3 naming it', async () => {
    const result = await runCli(['inspect', `mcp+node://${fixtureServers.basic}`], {
      env: { PATH: '/nonexistent' },
    })
    expect(result.code).toBe(3)
    expect(result.stderr).toBe("mcp-kit: cannot launch 'node': command not found\n")
  })

  it('Ctrl-C: exit 130 after the server is shut down', async () => {
    await withPids(async (pids) => {
      const result = await runCli(
        ['cat', `mcp+node://${fixtureServers.basic}?tool=hang`, '--env', pids.flag],
        {
          onSpawn: (child) => {
            const poll = setInterval(() => {
              if (pids.pids().length > 0) {
                clearInterval(poll)
                setTimeout(() => child.kill('SIGINT'), 200)
              }
            }, 20)
          },
        },
      )
      expect(result.code).toBe(130)
      expect(result.milliseconds).toBeLessThan(10_000)
    })
  })
})

describe('hostile references: never a shell, exit 2, one line', () => {
  const marker = join(scratch, 'pwned')
  it.each([
    `mcp+npx://$(touch ${marker})`,
    `mcp+npx://pkg;touch ${marker}`,
    `mcp+npx://\`touch ${marker}\``,
    `mcp+uvx://pkg|touch ${marker}`,
    `mcp+node://-e%20require('fs').writeFileSync('${marker}','')`,
    `mcp+node://./$(touch ${marker}).js`,
    `mcp+python://-c`,
    'mcp+npx://pkg\nrm',
    'mcp+npx://pkg%00',
    `mcp+node://${fixtureServers.basic}?arg=%0Aevil`,
    `@../../etc/passwd`,
    '@a%2Fb',
  ])('%j', async (reference) => {
    const result = await runCli(['inspect', reference])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/^mcp-kit: [^\n]+\n$/)
    expect(result.stdout).toBe('')
    expect(existsSync(marker)).toBe(false)
  })
})
