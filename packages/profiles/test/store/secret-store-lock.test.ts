// @module-tag integration
// Writes to the secret store from several processes at once: two real writer processes (the
// built package, as `mcp-kit profile secret set` runs it) each set their own keys many times and
// none is lost; a lock left by a writer that died is broken; one held by a live process is waited
// for.

import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readSecrets, writeSecrets } from '../../src/index.js'

const entry = new URL('../../dist/index.js', import.meta.url).href

let directory: string
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'mcp-kit-secret-lock-'))
})
afterEach(async () => rm(directory, { recursive: true, force: true }))

/** A process that sets `count` keys `<prefix>N`, one write each, starting at `startAt`. */
function writer(secretsPath: string, prefix: string, count: number, startAt: number) {
  const script = `
    const { writeSecrets } = await import(${JSON.stringify(entry)})
    await new Promise((resolve) => setTimeout(resolve, ${startAt} - Date.now()))
    for (let index = 0; index < ${count}; index++)
      await writeSecrets({ [${JSON.stringify(prefix)} + index]: 'value ' + index }, { secretsPath: ${JSON.stringify(secretsPath)} })
  `
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk
  })
  return new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, stderr })),
  )
}

describe('the secret store under concurrent writers', () => {
  it('two processes writing different keys at once lose none of them', async () => {
    const secretsPath = join(directory, 'mcp-kit', 'secrets.json')
    const count = 150
    const startAt = Date.now() + 500
    const [a, b] = await Promise.all([
      writer(secretsPath, 'a/env/K', count, startAt),
      writer(secretsPath, 'b/env/K', count, startAt),
    ])
    expect(a, a.stderr).toMatchObject({ code: 0 })
    expect(b, b.stderr).toMatchObject({ code: 0 })
    const keys = Object.keys(await readSecrets({ secretsPath }))
    expect(keys.filter((key) => key.startsWith('a/'))).toHaveLength(count)
    expect(keys.filter((key) => key.startsWith('b/'))).toHaveLength(count)
    expect(existsSync(`${secretsPath}.lock`)).toBe(false)
  }, 60_000)

  it('a lock left by a writer that died is broken', async () => {
    const secretsPath = join(directory, 'secrets.json')
    const dead = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' })
    const pid = Number(dead.stdout.trim())
    const owner = { pid, host: hostname(), token: 'left-over', at: Date.now() }
    await writeFile(`${secretsPath}.lock`, JSON.stringify(owner))
    const started = Date.now()
    await writeSecrets({ 'a/env/T': 'one' }, { secretsPath })
    expect(Date.now() - started).toBeLessThan(5000)
    expect(await readSecrets({ secretsPath })).toEqual({ 'a/env/T': 'one' })
    expect(existsSync(`${secretsPath}.lock`)).toBe(false)
  })

  it('a lock a live process holds is waited for, not broken', async () => {
    const secretsPath = join(directory, 'secrets.json')
    const lock = `${secretsPath}.lock`
    // Another process holds the lock for 800 ms, then lets go.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs')
         fs.writeFileSync(${JSON.stringify(lock)}, JSON.stringify({ pid: process.pid, host: require('node:os').hostname(), token: 'held', at: Date.now() }))
         console.log('held')
         setTimeout(() => fs.unlinkSync(${JSON.stringify(lock)}), 800)`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    const exited = new Promise((resolve) => holder.once('exit', resolve))
    await new Promise((resolve) => holder.stdout.once('data', resolve))
    const started = Date.now()
    await writeSecrets({ 'a/env/T': 'one' }, { secretsPath })
    expect(Date.now() - started).toBeGreaterThanOrEqual(500)
    expect(await readSecrets({ secretsPath })).toEqual({ 'a/env/T': 'one' })
    await exited
  })
})
