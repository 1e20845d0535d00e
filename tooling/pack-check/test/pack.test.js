// Every published package, packed with `pnpm pack` and installed from the tarballs into an empty
// npm project: no workspace: leftovers, no missing files, nothing needed from devDependencies.
// Needs the npm registry for third-party dependencies (the one network this project may use).

import { execFile } from 'node:child_process'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../../..', import.meta.url))
const published = [
  'packages/profiles',
  'packages/schema',
  'packages/client',
  'packages/server',
  'packages/gateway',
  'packages/openapi',
  'apps/mcp-kit',
]

let scratch
let project
let tarballs

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'mcp-kit-pack-'))
  const destination = join(scratch, 'tarballs')
  for (const directory of published) {
    await run('pnpm', ['pack', '--pack-destination', destination], { cwd: join(root, directory) })
  }
  tarballs = (await readdir(destination)).map((name) => join(destination, name))
  project = join(scratch, 'project')
  await run('mkdir', ['-p', project])
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'user-project', version: '1.0.0', private: true, type: 'module' }),
  )
  await run('npm', ['install', '--no-audit', '--no-fund', ...tarballs], { cwd: project })
})

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true })
})

describe('the packed packages', () => {
  it('are seven tarballs whose manifests have no workspace: or catalog: leftovers', async () => {
    expect(tarballs).toHaveLength(7)
    for (const tarball of tarballs) {
      const { stdout } = await run('tar', ['-xOzf', tarball, 'package/package.json'])
      expect(stdout, tarball).not.toMatch(/workspace:|catalog:/)
      const { stdout: listing } = await run('tar', ['-tzf', tarball])
      expect(listing, tarball).toContain('package/README.md')
      expect(listing, tarball).toContain('package/LICENSE')
    }
  })

  it('npx mcp-kit --help and --version work', async () => {
    const help = await run('npx', ['--no-install', 'mcp-kit', '--help'], { cwd: project })
    expect(help.stdout).toContain('mcp-kit inspect')
    const version = await run('npx', ['--no-install', 'mcp-kit', '--version'], { cwd: project })
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/)
  })

  it('npx mcp-kit inspect @demo runs the bundled demo server', async () => {
    const { stdout } = await run('npx', ['--no-install', 'mcp-kit', 'inspect', '@demo', '--format', 'json'], {
      cwd: project,
    })
    const document = JSON.parse(stdout)
    expect(document.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo', 'add']))
  })

  it('every @mcp-kit package imports, with its types', async () => {
    const script = `
      const checks = {
        '@mcp-kit/profiles': ['parseReference', 'resolveReference'],
        '@mcp-kit/schema': ['hashTools', 'diffTools', 'coerceArguments', 'validateArguments'],
        '@mcp-kit/client': ['connect', 'ClientError'],
        '@mcp-kit/server': ['createToolRegistry'],
        '@mcp-kit/gateway': ['createGateway', 'readGatewayConfig'],
        '@mcp-kit/openapi': ['loadOpenApi', 'createOpenApiRegistry', 'openApiTools'],
      }
      for (const [name, exports] of Object.entries(checks)) {
        const module = await import(name)
        for (const key of exports) if (typeof module[key] !== 'function') throw new Error(name + ' lacks ' + key)
      }
      const { loadOpenApi, openApiTools } = await import('@mcp-kit/openapi')
      const api = await loadOpenApi({ openapi: '3.1.0', info: { title: 'T', version: '1' }, servers: [{ url: 'https://api.example.com' }],
        paths: { '/x': { get: { operationId: 'getX', responses: { 200: { description: 'ok' } } } } } })
      if (openApiTools(api)[0]?.name !== 'getX') throw new Error('@mcp-kit/openapi made no tool')
      const { validateArguments } = await import('@mcp-kit/schema')
      if (validateArguments({ a: 1 }, { type: 'object', properties: { a: { type: 'string' } } }).ok) throw new Error('ajv did not run')
      console.log('ok')`
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project })
    expect(stdout.trim()).toBe('ok')
    for (const name of ['profiles', 'schema', 'client', 'server', 'gateway', 'openapi']) {
      const { stdout: types } = await run('ls', [
        join(project, 'node_modules', '@mcp-kit', name, 'dist', 'index.d.ts'),
      ])
      expect(types.trim()).toMatch(/index\.d\.ts$/)
    }
  })
})
