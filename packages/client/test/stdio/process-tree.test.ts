// @module-tag integration
// Following a server's process tree in /proc: descendants are found wherever they went (their own
// session included) and remembered by pid and start time, so a pid that now names another
// process is never counted; members of a session whose leader is gone still count.

import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { afterEach, describe, expect, it } from 'vitest'
import { processTable, readProcessStat } from '../../src/stdio/process-group.js'
import { trackProcessTree, treeMembers } from '../../src/stdio/process-tree.js'

const started: number[] = []
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {}
  }
})

/** A session leader with a child in a session of its own (`setsid`) and one in its own session. */
async function tree(): Promise<{ leader: ChildProcess; detached: number; attached: number }> {
  const code = `
    const { spawn } = require('node:child_process')
    const keep = ['-e', 'setInterval(() => {}, 1000)']
    const detached = spawn(process.execPath, keep, { detached: true, stdio: 'ignore' })
    const attached = spawn(process.execPath, keep, { stdio: 'ignore' })
    process.stdout.write(detached.pid + ' ' + attached.pid + '\\n')
    setInterval(() => {}, 1000)
  `
  const leader = spawn(process.execPath, ['-e', code], {
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
  })
  const [line] = (await once(leader.stdout as NodeJS.ReadableStream, 'data')) as [Buffer]
  const [detached, attached] = line.toString().trim().split(' ').map(Number) as [number, number]
  started.push(leader.pid as number, detached, attached)
  return { leader, detached, attached }
}

describe.skipIf(process.platform !== 'linux')('process trees', () => {
  for (const childrenFiles of [true, false]) {
    it(`finds every descendant, in or out of the session (${childrenFiles ? 'children files' : 'all of /proc'})`, async () => {
      const { leader, detached, attached } = await tree()
      const followed = trackProcessTree(leader.pid as number, { childrenFiles })
      expect(followed?.root.leader).toBe(true)
      const found = followed?.scan() ?? []
      expect(found.map((member) => member.pid).sort()).toEqual([attached, detached].sort())
      expect(found.find((member) => member.pid === detached)?.leader).toBe(true)
      expect(followed?.scan()).toEqual([]) // remembered: not found twice
      expect(followed?.branched).toBe(true)
      expect(followed?.running().sort()).toEqual([leader.pid, attached, detached].sort())
    })
  }

  it('a process that does not lead its session is not followed (sessions would prove nothing)', () => {
    expect(trackProcessTree(process.pid)).toBeUndefined()
  })

  it('a remembered pid counts only while its start time matches', async () => {
    const { leader, detached } = await tree()
    const table = processTable()
    const stamp = readProcessStat(detached)?.startTime as string
    expect(treeMembers([{ pid: detached, startTime: stamp, leader: true }], table).has(detached)).toBe(true)
    const reused = treeMembers([{ pid: leader.pid as number, startTime: '1', leader: true }], table)
    expect(reused.size).toBe(0)
  })

  it('members of a session whose leader is gone still count; their parent links are cut', async () => {
    const { leader, detached, attached } = await tree()
    const stamp = readProcessStat(leader.pid as number)?.startTime as string
    leader.kill('SIGKILL')
    await once(leader, 'exit')
    const members = treeMembers(
      [{ pid: leader.pid as number, startTime: stamp, leader: true }],
      processTable(),
    )
    expect([...members]).toEqual([attached]) // the setsid child left the session: only memory finds it
    expect(members.has(detached)).toBe(false)
  })
})
