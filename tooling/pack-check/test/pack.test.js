// Every published package, packed with `pnpm pack` and installed from the tarballs into an empty
// npm project: no workspace: leftovers, no missing files, nothing needed from devDependencies.
// Needs the npm registry for third-party dependencies (the one network this project may use).

import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, inject, it } from 'vitest'
import { internalEntryPoint, publishedPackages, root } from './published.js'

const run = promisify(execFile)
// Packed and installed by setup/packed-project.js.
const project = inject('project')
const packages = inject('packages')

describe('the packed packages', () => {
  it('are one tarball per published package, whose manifests have no workspace: or catalog: leftovers', async () => {
    // Every package that is not private is packed (published.js finds them); these at least.
    expect(packages.map((entry) => entry.name)).toEqual(
      expect.arrayContaining([
        '@mcp-kit/core',
        '@mcp-kit/profiles',
        '@mcp-kit/schema',
        '@mcp-kit/client',
        '@mcp-kit/server',
        '@mcp-kit/gateway',
        '@mcp-kit/openapi',
        '@mcp-kit/registry',
        '@mcp-kit/collections',
        'mcp-kit',
      ]),
    )
    for (const { tarball } of packages) {
      const { stdout } = await run('tar', ['-xOzf', tarball, 'package/package.json'])
      expect(stdout, tarball).not.toMatch(/workspace:|catalog:/)
      const { stdout: listing } = await run('tar', ['-tzf', tarball])
      expect(listing, tarball).toContain('package/README.md')
      expect(listing, tarball).toContain('package/LICENSE')
    }
  })

  it('ship no build output whose source is gone (the builds do not empty dist/)', async () => {
    const stale = []
    for (const { directory, tarball } of packages) {
      const { stdout: listing } = await run('tar', ['-tzf', tarball])
      for (const path of listing.split('\n')) {
        // dist/web/ is a bundle built by Vite (@mcp-kit/ui), not one module per source file.
        const built = /^package\/dist\/(?!web\/)(.+)\.js$/.exec(path)?.[1]
        if (built === undefined) continue
        const sources = ['.ts', '.mts', '.js'].map((extension) =>
          join(root, directory, 'src', built + extension),
        )
        if (!sources.some((source) => existsSync(source))) stale.push(`${directory}/dist/${built}.js`)
      }
    }
    expect(stale.join('\n'), 'stale modules in the tarballs: empty dist/ and build again').toBe('')
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
        '@mcp-kit/core': ['isLegacyVersion', 'isModernVersion', 'mcpNameField', 'isRecord'],
        '@mcp-kit/profiles': ['parseReference', 'resolveReference'],
        '@mcp-kit/schema': ['hashTools', 'diffTools', 'coerceArguments', 'validateArguments'],
        '@mcp-kit/client': ['connect', 'ClientError'],
        '@mcp-kit/server': ['createToolRegistry'],
        '@mcp-kit/gateway': ['createGateway', 'readGatewayConfig'],
        '@mcp-kit/openapi': ['loadOpenApi', 'createOpenApiRegistry', 'openApiTools'],
        '@mcp-kit/registry': ['createRegistryClient', 'lintServerJson', 'loadServerSchema'],
        '@mcp-kit/collections': ['loadCollection', 'parseCollection', 'runCollection', 'junitReport', 'collectionSchema'],
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
      const { lintServerJson } = await import('@mcp-kit/registry')
      if (lintServerJson('{"name": "x", "version": "^1"}').ok) throw new Error('@mcp-kit/registry linted nothing')
      const { collectionSchema, parseCollection } = await import('@mcp-kit/collections')
      if (collectionSchema().title !== 'mcp-kit collection') throw new Error('@mcp-kit/collections lacks its JSON Schema')
      if (parseCollection('{servers: {s: "@s"}, steps: [{list: tools}]}').steps.length !== 1) throw new Error('@mcp-kit/collections read nothing')
      console.log('ok')`
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project })
    expect(stdout.trim()).toBe('ok')
    for (const name of [
      'core',
      'profiles',
      'schema',
      'client',
      'server',
      'gateway',
      'openapi',
      'registry',
      'collections',
    ]) {
      const { stdout: types } = await run('ls', [
        join(project, 'node_modules', '@mcp-kit', name, 'dist', 'index.d.ts'),
      ])
      expect(types.trim()).toMatch(/index\.d\.ts$/)
    }
  })

  it("each ./internal entry (for mcp-kit's own packages) imports, with its types", async () => {
    const internals = publishedPackages().flatMap((published) => {
      const specifier = internalEntryPoint(published)
      if (specifier === undefined) return []
      // The same conditions as the main entry: types, the workspace's source, the build.
      const { exports } = published.manifest
      expect(Object.keys(exports['./internal']), specifier).toEqual(Object.keys(exports['.']))
      return [{ name: published.name, specifier }]
    })
    const script = `
      for (const specifier of ${JSON.stringify(internals.map((entry) => entry.specifier))}) {
        const module = await import(specifier)
        if (!Object.values(module).some((value) => typeof value === 'function')) throw new Error(specifier + ' exports no function')
      }
      console.log('ok')`
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project })
    expect(stdout.trim()).toBe('ok')
    for (const { name } of internals) {
      expect(existsSync(join(project, 'node_modules', name, 'dist', 'internal.d.ts')), name).toBe(true)
    }
  })
})
