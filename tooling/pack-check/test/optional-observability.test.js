// Metrics and tracing are optional: installing @mcp-kit/gateway alone brings neither prom-client
// nor any @opentelemetry package (optional peer dependencies), a gateway without them runs, and
// asking it for metrics or tracing then says what to install. The CLI depends on them.

import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, expect, inject, it } from 'vitest'

const run = promisify(execFile)
const scratch = inject('scratch')
const packages = inject('packages')
const project = join(scratch, 'gateway-alone')

afterAll(() => rm(project, { recursive: true, force: true }))

it('installing @mcp-kit/gateway alone installs no metrics or tracing library; asking for them says what to install', async () => {
  await mkdir(project, { recursive: true })
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'alone', private: true, type: 'module' }),
  )
  const wanted = [
    '@mcp-kit/gateway',
    '@mcp-kit/server',
    '@mcp-kit/client',
    '@mcp-kit/schema',
    '@mcp-kit/profiles',
    '@mcp-kit/core',
  ]
  const tarballs = packages.filter((entry) => wanted.includes(entry.name)).map((entry) => entry.tarball)
  expect(tarballs).toHaveLength(wanted.length)
  await run('npm', ['install', '--no-audit', '--no-fund', ...tarballs], { cwd: project })
  expect(existsSync(join(project, 'node_modules', 'prom-client'))).toBe(false)
  expect(existsSync(join(project, 'node_modules', '@opentelemetry'))).toBe(false)
  const script = `
    const { createGateway } = await import('@mcp-kit/gateway')
    const plain = createGateway({ upstreams: [], policy: { default: 'allow', rules: [] } })
    await plain.start()
    await plain.close()
    const outcomes = []
    for (const options of [{ metrics: true }, { tracing: { env: {} } }]) {
      try {
        await createGateway({ upstreams: [], ...options }).start()
        outcomes.push('started?')
      } catch (error) {
        outcomes.push(error.message)
      }
    }
    console.log(JSON.stringify(outcomes))`
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project })
  const [metrics, tracing] = JSON.parse(stdout.trim())
  expect(metrics).toContain('npm install prom-client')
  expect(tracing).toContain('npm install @opentelemetry/')
}, 180_000)

it('the CLI installs prom-client but not OpenTelemetry; serve --otlp then says what to install (exit 2)', async () => {
  const project = inject('project')
  expect(existsSync(join(project, 'node_modules', 'prom-client'))).toBe(true)
  expect(existsSync(join(project, 'node_modules', '@opentelemetry', 'sdk-trace'))).toBe(false)
  const config = join(project, 'otlp-config.json')
  await writeFile(config, JSON.stringify({ mcpServers: {} }))
  const outcome = await run(
    'npx',
    [
      '--no-install',
      'mcp-kit',
      'serve',
      '--config',
      config,
      '--port',
      '0',
      '--otlp',
      'http://127.0.0.1:4318',
    ],
    { cwd: project },
  ).then(
    () => ({ code: 0, stderr: '' }),
    (error) => ({ code: error.code, stderr: String(error.stderr) }),
  )
  expect(outcome.code).toBe(2)
  expect(outcome.stderr).toContain('needs the optional OpenTelemetry packages')
  expect(outcome.stderr).toContain('npm install @opentelemetry/api@~1.9.1')
}, 120_000)
