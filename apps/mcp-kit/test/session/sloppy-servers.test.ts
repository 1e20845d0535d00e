// @module-tag integration
// The interop matrix with hand-written servers' habits: every command works against each sloppy
// kind (a server that answers unknown methods with {}, null or a string, errors of odd shapes,
// notifications before its initialize answer, only 2024-11-05, ids echoed as strings, silence),
// and pinning 2026-07-28 against them gives one clear line instead.

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixtureServers, sloppyServers } from '@mcp-kit/fixtures'
import { afterAll, afterEach, describe, expect, test } from 'vitest'
import { records, runCli, runCliAtHome, startServe, stopStarted } from '../helpers/helpers.js'

const scratch = mkdtempSync(join(tmpdir(), 'mcp-kit-sloppy-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
afterEach(stopStarted)

const kinds = Object.entries(sloppyServers)

/** A naked reference to the basic fixture with one kind's habits (and any extra launch words). */
function reference(habits: string[], query = '', extra: string[] = []): string {
  const words = [...habits, ...extra].map((word) => `arg=${encodeURIComponent(word)}`).join('&')
  return `mcp+node://${fixtureServers.basic}?${words}${query === '' ? '' : `&${query}`}`
}

// The first command against a silent server waits out the probe (10 s on stdio); the verdict is
// then remembered, as it would be for a user.
describe.each(kinds)('a server whose habit is: %s', (_kind, habits) => {
  test('inspect lists its tools', async () => {
    const result = await runCli(['inspect', reference(habits), '--format', 'json'], { timeoutMs: 40_000 })
    expect(result.code, result.stderr).toBe(0)
    const document = JSON.parse(result.stdout)
    expect(document.era).toBe('legacy')
    expect(document.tools.map((tool: { name: string }) => tool.name)).toContain('add')
  }, 45_000)

  test('cat calls a tool', async () => {
    const result = await runCli(['cat', reference(habits, 'tool=add&a=1&b=2')])
    expect(result.code, result.stderr).toBe(0)
    expect(records(result.stdout)).toEqual([{ sum: 3 }])
  })

  test('cat reads a resource and gets a prompt', async () => {
    const read = await runCli(['cat', reference(habits, 'resource=fixture://hello')])
    expect(read.code, read.stderr).toBe(0)
    expect(records(read.stdout)).toMatchObject([{ text: 'hello world' }])
  })

  test('put calls once per input record, in order', async () => {
    const result = await runCli(['put', reference(habits, 'tool=add')], {
      input: '{"a":1,"b":2}\n{"a":40,"b":2}\n',
    })
    expect(result.code, result.stderr).toBe(0)
    expect(records(result.stdout)).toEqual([{ sum: 3 }, { sum: 42 }])
  })

  test('watch prints a list change, then stops at --max-time', async () => {
    const result = await runCli(['watch', reference(habits, '', ['--grow-after=200']), '--max-time', '2'])
    expect(records(result.stdout)).toMatchObject([{ method: 'notifications/tools/list_changed' }])
    expect(result.stderr).toContain('total time limit')
    expect(result.code).toBe(4)
  })

  test('shell from a pipe calls a tool', async () => {
    const result = await runCli(['shell', reference(habits)], {
      input: 'add a=2 b=3\n',
      env: { XDG_STATE_HOME: scratch },
    })
    expect(result.code, result.stderr).toBe(0)
    expect(records(result.stdout)).toEqual([{ sum: 5 }])
  })

  test('profile create saves it, and the profile calls a tool', async () => {
    const home = mkdtempSync(join(scratch, 'home-'))
    const created = await runCliAtHome(home, home, [
      'profile',
      'create',
      'sloppy',
      '--from',
      reference(habits),
    ])
    expect(created.code, created.stderr).toBe(0)
    const called = await runCliAtHome(home, home, ['cat', '@sloppy/add?a=20&b=22'])
    expect(called.code, called.stderr).toBe(0)
    expect(records(called.stdout)).toEqual([{ sum: 42 }])
  })

  test('serve fronts it as a gateway upstream', async () => {
    const serving = await startServe([`sloppy=${reference(habits)}`, '--port', '0'])
    const result = await runCli(['cat', `mcp+${serving.url}?tool=sloppy__add&a=3&b=4`])
    expect(result.code, result.stderr).toBe(0)
    expect(records(result.stdout)).toEqual([{ sum: 7 }])
  })

  test('with --protocol 2026-07-28 pinned: one clear line, no stack', async () => {
    const result = await runCli(
      ['cat', reference(habits, 'tool=add&a=1&b=2'), '--protocol', '2026-07-28', '--connect-timeout', '3'],
      { timeoutMs: 20_000 },
    )
    expect(result.code).not.toBe(0)
    expect(result.stdout).toBe('')
    const lines = result.stderr.trimEnd().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/does not speak MCP 2026-07-28|did not finish initializing within 3 s/)
    expect(lines[0]).not.toMatch(/\bat .*\.js:\d+/)
  })
})
