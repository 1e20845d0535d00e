// Redis is optional: installing @mcp-kit/server alone brings no Redis client (it is an optional
// peer dependency), asking it for a Redis store then says what to install; the CLI, which
// depends on @redis/client, still serves with --store redis://… (see apps/mcp-kit's scale-out
// tests).

import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, expect, inject, it } from 'vitest'

const run = promisify(execFile)
const scratch = inject('scratch')
const packages = inject('packages')
const project = join(scratch, 'server-alone')

afterAll(() => rm(project, { recursive: true, force: true }))

it('installing @mcp-kit/server alone installs no Redis client; a Redis store then says what to install', async () => {
  await mkdir(project, { recursive: true })
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'alone', private: true, type: 'module' }),
  )
  const tarballs = packages
    .filter((entry) => ['@mcp-kit/server', '@mcp-kit/schema', '@mcp-kit/core'].includes(entry.name))
    .map((entry) => entry.tarball)
  expect(tarballs).toHaveLength(3)
  await run('npm', ['install', '--no-audit', '--no-fund', ...tarballs], { cwd: project })
  expect(existsSync(join(project, 'node_modules', '@redis', 'client'))).toBe(false)
  expect(existsSync(join(project, 'node_modules', '@mcp-kit', 'server', 'dist', 'index.js'))).toBe(true)
  const script = `
    const { redisStore, createToolRegistry } = await import('@mcp-kit/server')
    if (typeof createToolRegistry !== 'function') throw new Error('no registry')
    try {
      await redisStore({ url: 'redis://127.0.0.1:6379' })
      console.log('connected?')
    } catch (error) {
      console.log(JSON.stringify({ code: error.code, message: error.message }))
    }`
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project })
  const outcome = JSON.parse(stdout.trim())
  expect(outcome.code).toBe('store_unavailable')
  expect(outcome.message).toContain('npm install @redis/client')
}, 180_000)
