// Global setup: packs every published package with `pnpm pack` and installs the tarballs, with
// typescript and @types/node, into one empty npm project that all pack-check tests share.
// Needs the npm registry for third-party dependencies (the one network this project may use).
// MCP_KIT_PACK_KEEP=1 keeps the project afterwards and prints where it is; MCP_KIT_PACK_PROJECT=<that
// path> reuses it instead of packing again (READMEs are read from the repository on every run, so
// editing one needs no new pack).

import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { catalogRange, publishedPackages, root } from '../published.js'

const run = promisify(execFile)

/** `pnpm`, or the pinned version through npx when none is on the PATH. */
async function pnpmCommand() {
  const { packageManager } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'))
  const pinned = packageManager?.split('@')[1]
  try {
    const { stdout } = await run('pnpm', ['--version'])
    if (!pinned || stdout.trim() === pinned) return ['pnpm']
  } catch {}
  return ['npx', '-y', `pnpm@${pinned ?? 'latest'}`]
}

// Vitest may call a global setup once per test project (the shared config defines projects that
// extend this one), each time with a fresh copy of this module: pack and install once per
// process, and clean up after the last.
const shared = Symbol.for('@mcp-kit/pack-check:packed-project')
/** @type {{ prepared?: Promise<{ scratch: string, project: string, packages: object[] }>, users: number }} */
globalThis[shared] ??= { users: 0 }
const state = globalThis[shared]

/** @param {{ provide: (key: string, value: unknown) => void }} context */
export default async function setup({ provide }) {
  state.users++
  state.prepared ??= reuse(process.env.MCP_KIT_PACK_PROJECT) ?? prepare()
  const { scratch, project, packages } = await state.prepared
  provide('scratch', scratch)
  provide('project', project)
  provide('packages', packages)
  return async () => {
    if (--state.users > 0) return
    if (process.env.MCP_KIT_PACK_KEEP || process.env.MCP_KIT_PACK_PROJECT) {
      console.error(`pack-check: kept ${project}`)
      return
    }
    await rm(scratch, { recursive: true, force: true })
  }
}

/** A project kept from an earlier run. @param {string | undefined} project */
function reuse(project) {
  if (!project) return undefined
  return readFile(join(project, 'packages.json'), 'utf8').then((text) => ({
    scratch: dirname(project),
    project,
    packages: JSON.parse(text),
  }))
}

async function prepare() {
  const scratch = await mkdtemp(join(tmpdir(), 'mcp-kit-pack-'))
  const packages = await packPublished(join(scratch, 'tarballs'))
  const project = join(scratch, 'project')
  await mkdir(project)
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'user-project', version: '1.0.0', private: true, type: 'module' }),
  )
  await run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      ...packages.map((entry) => entry.tarball),
      `typescript@${catalogRange('typescript')}`,
      `@types/node@${catalogRange('@types/node')}`,
    ],
    { cwd: project },
  )
  await writeFile(join(project, 'packages.json'), JSON.stringify(packages, null, 2))
  return { scratch, project, packages }
}

/**
 * Packs every published package into `destination`.
 * @param {string} destination
 * @returns {Promise<{ directory: string, name: string, tarball: string }[]>}
 */
export async function packPublished(destination) {
  const [pnpm = 'pnpm', ...pnpmArgs] = await pnpmCommand()
  const packages = []
  for (const published of publishedPackages()) {
    const before = new Set(await readdir(destination).catch(() => []))
    await run(pnpm, [...pnpmArgs, 'pack', '--pack-destination', destination], {
      cwd: join(root, published.directory),
    })
    const tarball = (await readdir(destination)).find((name) => !before.has(name))
    if (!tarball) throw new Error(`pnpm pack wrote no tarball for ${published.directory}`)
    packages.push({
      directory: published.directory,
      name: published.name,
      tarball: join(destination, tarball),
    })
  }
  return packages
}
