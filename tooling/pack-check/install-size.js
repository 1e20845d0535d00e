#!/usr/bin/env node
// Measures what installing each published package costs a user: the packed tarball (and the
// tarballs of the @mcp-kit packages it depends on) installed alone into an empty npm project,
// production dependencies only, install scripts off; beside it the MCP SDK v2 package that does
// the same job, from npm. Prints one Markdown line per package, for the READMEs' "Install size".
// Needs the npm registry. Usage: node install-size.js [name…]

import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { catalogRange, publishedPackages } from './test/published.js'
import { packPublished } from './test/setup/packed-project.js'

const run = promisify(execFile)

/** What SDK v2 (or the official tool) installs for the same job, by package: one or more choices. */
const equivalents = {
  '@mcp-kit/client': [['@modelcontextprotocol/client']],
  '@mcp-kit/server': [
    ['@modelcontextprotocol/server'],
    ['@modelcontextprotocol/server', '@modelcontextprotocol/node'],
  ],
  '@mcp-kit/gateway': [
    ['@modelcontextprotocol/client', '@modelcontextprotocol/server', '@modelcontextprotocol/node'],
  ],
  'mcp-kit': [['@modelcontextprotocol/inspector']],
}

/**
 * Installs `specs` alone and measures node_modules.
 * @param {string} scratch
 * @param {string[]} specs
 */
async function measure(scratch, specs) {
  const project = await mkdtemp(join(scratch, 'install-'))
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'measure', version: '1.0.0', private: true }),
  )
  await run('npm', ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', ...specs], {
    cwd: project,
    maxBuffer: 64 * 1024 * 1024,
  })
  const disk = Number((await run('du', ['-sk', 'node_modules'], { cwd: project })).stdout.split('\t')[0])
  const files = Number(
    (await run('du', ['-sk', '--apparent-size', 'node_modules'], { cwd: project })).stdout.split('\t')[0],
  )
  const { stdout } = await run('npm', ['ls', '--all', '--parseable', '--omit=dev'], {
    cwd: project,
    maxBuffer: 64 * 1024 * 1024,
  })
  const packages = new Set(stdout.trim().split('\n').slice(1)).size
  await rm(project, { recursive: true, force: true })
  return { packages, diskKb: disk, filesKb: files }
}

/** @param {{ packages: number, diskKb: number, filesKb: number }} size */
const describe = (size) =>
  `${size.packages} packages, ${(size.diskKb / 1024).toFixed(1)} MB on disk (${(size.filesKb / 1024).toFixed(1)} MB of files)`

/** The @mcp-kit packages `name` needs, itself included. */
function withInternalDependencies(name, manifests) {
  const needed = new Set([name])
  const queue = [name]
  while (queue.length > 0) {
    const manifest = manifests.get(queue.shift())
    for (const dependency of Object.keys(manifest?.dependencies ?? {})) {
      if (manifests.has(dependency) && !needed.has(dependency)) {
        needed.add(dependency)
        queue.push(dependency)
      }
    }
  }
  return [...needed]
}

const only = process.argv.slice(2)
const scratch = await mkdtemp(join(tmpdir(), 'mcp-kit-install-size-'))
try {
  await mkdir(join(scratch, 'tarballs'))
  const packed = await packPublished(join(scratch, 'tarballs'))
  const manifests = new Map(publishedPackages().map((published) => [published.name, published.manifest]))
  const tarballs = new Map(packed.map((entry) => [entry.name, entry.tarball]))
  const date = new Date().toISOString().slice(0, 10)
  console.log(
    `Measured ${date}, Node ${process.version}, npm install --omit=dev --ignore-scripts, du -sk node_modules:`,
  )
  for (const { name } of packed) {
    if (only.length > 0 && !only.includes(name)) continue
    const own = await measure(
      scratch,
      withInternalDependencies(name, manifests).map((dependency) => tarballs.get(dependency)),
    )
    let line = `- \`${name}\`: ${describe(own)}`
    for (const equivalent of equivalents[name] ?? []) {
      const specs = equivalent.map((spec) => {
        try {
          return `${spec}@${catalogRange(spec)}`
        } catch {
          return spec
        }
      })
      line += `; ${equivalent.map((spec) => `\`${spec}\``).join(' + ')}: ${describe(await measure(scratch, specs))}`
    }
    console.log(line)
  }
} finally {
  await rm(scratch, { recursive: true, force: true })
}
