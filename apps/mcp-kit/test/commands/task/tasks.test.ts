// @module-tag integration
// Calls that servers run as tasks, from the CLI: cat and put follow a task to its result (with
// the task's status on a terminal's status line), --detach prints the task instead, and `mcp-kit
// task get|cancel` look at, wait for, or cancel it later. Against `mcp-kit serve` over HTTP
// (2026-07-28 tasks extension) and server-everything over stdio (2025-11-25 experimental tasks).

import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { npmServers } from '@mcp-kit/fixtures'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { binPath, records, runCli, type Serving, startServe, stopStarted } from '../../helpers/helpers.js'

const registry = fileURLToPath(new URL('../../fixtures/task-registry.mjs', import.meta.url))

describe('a served registry whose tools run as tasks (2026-07-28)', () => {
  let serving: Serving
  let server: string
  beforeAll(async () => {
    serving = await startServe([registry, '--port', '0'])
    server = `mcp+${serving.url}`
  })
  afterAll(stopStarted)

  it('cat follows the task to its result; put follows one per record', async () => {
    const cat = await runCli(['cat', `${server}?tool=crunch`, 'steps=3', '--verbose'])
    expect(cat.code).toBe(0)
    expect(records(cat.stdout)).toEqual([{ steps: 3 }])
    expect(cat.stderr).toMatch(/crunch: the server runs the call as task [0-9a-f-]{36}/)
    const put = await runCli(['put', `${server}?tool=crunch`], { input: '{"steps":1}\n{"steps":2}\n' })
    expect(put.code).toBe(0)
    expect(records(put.stdout)).toEqual([{ steps: 1 }, { steps: 2 }])
  })

  it('--detach prints the task; task get reads it, task get --wait prints its result, task cancel ends it', async () => {
    const detached = await runCli(['cat', `${server}?tool=crunch`, 'steps=2', '--detach'])
    expect(detached.code).toBe(0)
    const [handle] = records(detached.stdout) as Array<{ taskId: string; status: string }>
    expect(handle).toMatchObject({ status: 'working', pollIntervalMs: 1000 })
    const waited = await runCli(['task', 'get', server, handle?.taskId as string, '--wait'])
    expect(waited.code).toBe(0)
    expect(records(waited.stdout)).toEqual([{ steps: 2 }])
    const state = await runCli(['task', 'get', server, handle?.taskId as string])
    expect(records(state.stdout)).toEqual([
      expect.objectContaining({ taskId: handle?.taskId, status: 'completed', result: expect.any(Object) }),
    ])

    const held = records((await runCli(['cat', `${server}?tool=hold`, '--detach'])).stdout)[0] as {
      taskId: string
    }
    const cancelled = await runCli(['task', 'cancel', server, held.taskId])
    expect(cancelled.code).toBe(0)
    expect(records(cancelled.stdout)).toEqual([
      expect.objectContaining({ taskId: held.taskId, status: 'cancelled' }),
    ])

    const unknown = await runCli(['task', 'get', server, 'no-such-task'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('Task not found: no-such-task')
  })

  it('serve --task-after: a slow call of a tool that declares nothing becomes a task', async () => {
    const lending = await startServe([registry, '--port', '0', '--task-after', '0'])
    const detached = await runCli(['cat', `mcp+${lending.url}?tool=plain_wait`, '--detach'])
    expect(records(detached.stdout)).toEqual([expect.objectContaining({ status: 'working' })])
    const followed = await runCli(['cat', `mcp+${lending.url}?tool=plain_wait`, '--verbose'])
    expect(records(followed.stdout)).toEqual([{ type: 'text', text: 'waited' }])
    expect(followed.stderr).toMatch(/plain_wait: the server runs the call as task/)
    const plain = await runCli(['cat', `${server}?tool=plain_wait`, '--detach'])
    expect(records(plain.stdout)).toEqual([{ type: 'text', text: 'waited' }])
  })

  it('serve --task-max: past the bound a tool that requires tasks is refused, saying why; room again once one ends', async () => {
    const bounded = await startServe([registry, '--port', '0', '--task-max', '1'])
    const reference = `mcp+${bounded.url}`
    const held = records((await runCli(['cat', `${reference}?tool=hold`, '--detach'])).stdout)[0] as {
      taskId: string
    }
    const refused = await runCli(['cat', `${reference}?tool=hold`, '--detach'])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('too many tasks running on this server (limit 1); retry later')
    expect((await runCli(['task', 'cancel', reference, held.taskId])).code).toBe(0)
    const again = await runCli(['cat', `${reference}?tool=hold`, '--detach'])
    expect(records(again.stdout)).toEqual([expect.objectContaining({ status: 'working' })])
  })

  it('--detach refuses a stdio server: its tasks end with the command', async () => {
    const result = await runCli(['cat', `mcp+node://${registry}?tool=crunch`, '--detach'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--detach needs an HTTP server')
  })
})

describe("server-everything's simulate-research-query (a 2025-11-25 experimental task)", () => {
  it('cat follows it to its report, the task status on the status line of a terminal', async () => {
    // `script` gives the CLI a pseudo-terminal, as a user's shell would.
    const reference = `mcp+node://${npmServers.everything}?tool=simulate-research-query&topic=tides`
    const command = `stty cols 160; ${process.execPath} ${binPath} cat '${reference}'; echo "exit $?"`
    const { stdout } = await promisify(execFile)('script', ['-qec', command, '/dev/null'], {
      env: { ...process.env, NO_COLOR: '' },
      timeout: 60_000,
    })
    expect(stdout).toContain('\r\u001b[2Ksimulate-research-query: task working: Gathering sources...')
    expect(stdout).toMatch(/\r\u001b\[2K\{"type":"text","text":"# Research Report: tides/)
    expect(stdout).toMatch(/exit 0\s*$/)
  })
})
