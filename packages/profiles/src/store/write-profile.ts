// Writes profiles without ever leaving one half-written: a directory profile is built in a
// temporary directory beside its final place and swapped in with renames; a single-file
// profile is written to a temporary file and renamed over the old one.

import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { ProfileError } from '../errors.js'
import { assertValidName, isValidName } from '../names.js'
import type { ProfileLocation, ProfileMeta, ProfileTool } from '../profile-types.js'
import type { ProfileScope } from '../types.js'
import { nodeFileSystem, type ProfileFileSystem } from './file-system.js'

/** A whole profile: its launch settings and its tool entries, keyed by file name (without .json). */
export interface ProfileDocument {
  meta: ProfileMeta
  tools: Record<string, ProfileTool>
}

export interface WriteOptions {
  /** The root to write into (it holds `profiles/`). */
  root: string
  scope: ProfileScope
  /** Replace an existing profile of the same name in this root. */
  force?: boolean
  fs?: ProfileFileSystem
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`
}

function suffix(): string {
  return randomBytes(6).toString('hex')
}

/**
 * A file name for a tool: the tool's own name when it is a safe file name, otherwise a
 * sanitized one (the entry then keeps the real name in `tool`), made unique among `taken`.
 */
export function toolFileName(toolName: string, taken: ReadonlySet<string>): string {
  let base =
    isValidName(toolName) && toolName !== '_meta'
      ? toolName
      : toolName.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^[^A-Za-z0-9]+/, '')
  if (base === '' || base === '_meta') base = `tool_${base}`
  let name = base.slice(0, 180)
  for (let count = 2; taken.has(name); count++) name = `${base.slice(0, 170)}-${count}`
  return name
}

async function exists(fs: ProfileFileSystem, path: string): Promise<boolean> {
  return (await fs.kind(path)) !== undefined
}

/**
 * What a project's `.mcp-kit/.gitignore` keeps out of version control: the project's profiles
 * are shared, anything of one user or one machine is not.
 */
export const projectIgnore = `# Written by mcp-kit. The profiles here are shared with the project; secrets never are:
# profiles refer to them as \${secret:…}, and each user keeps them in their own secret store.
# Anything local to one user or machine stays out of version control:
secrets.json
credentials.json
*.local.json
*.lock
*.tmp
.*.tmp-*
.*.old-*
`

/** Gives a project root its ignore file, unless it has one (the user's own stays as it is). */
async function ensureProjectIgnore(fs: ProfileFileSystem, root: string): Promise<void> {
  const path = join(root, '.gitignore')
  if ((await fs.kind(path)) !== undefined) return
  await fs.mkdir(root)
  await fs.writeFile(path, projectIgnore)
}

/** Writes a directory-form profile atomically. Refuses to replace one without `force`. */
export async function writeProfile(
  name: string,
  document: ProfileDocument,
  options: WriteOptions,
): Promise<ProfileLocation> {
  assertValidName(name, 'profile')
  for (const tool of Object.keys(document.tools)) assertValidName(tool, 'tool')
  const fs = options.fs ?? nodeFileSystem
  const profilesDir = join(options.root, 'profiles')
  const target = join(profilesDir, name)
  const singleFile = `${target}.json`
  const existing = (await exists(fs, target))
    ? target
    : (await exists(fs, singleFile))
      ? singleFile
      : undefined
  if (existing && !options.force) {
    throw new ProfileError(
      'profile_invalid',
      `profile '${name}' already exists at ${existing}; use --force to replace it`,
      {
        details: { path: existing },
      },
    )
  }
  await fs.mkdir(profilesDir)
  if (options.scope === 'project') await ensureProjectIgnore(fs, options.root)
  const staging = join(profilesDir, `.${name}.tmp-${suffix()}`)
  try {
    await fs.mkdir(staging)
    await fs.writeFile(join(staging, '_meta.json'), json(document.meta))
    for (const [file, entry] of Object.entries(document.tools))
      await fs.writeFile(join(staging, `${file}.json`), json(entry))
    await swapIn(fs, staging, target, name, profilesDir)
    if (existing === singleFile) await fs.remove(singleFile)
  } catch (error) {
    await fs.remove(staging).catch(() => {})
    if (ProfileError.isInstance(error)) throw error
    throw new ProfileError(
      'profile_invalid',
      `cannot write profile '${name}' in ${profilesDir}: ${(error as Error).message}`,
      {
        details: { path: target },
        cause: error,
      },
    )
  }
  return {
    name,
    scope: options.scope,
    root: options.root,
    form: 'directory',
    path: target,
    metaPath: join(target, '_meta.json'),
  }
}

async function swapIn(
  fs: ProfileFileSystem,
  staging: string,
  target: string,
  name: string,
  profilesDir: string,
): Promise<void> {
  if (!(await exists(fs, target))) {
    await fs.rename(staging, target)
    return
  }
  const old = join(profilesDir, `.${name}.old-${suffix()}`)
  await fs.rename(target, old)
  try {
    await fs.rename(staging, target)
  } catch (error) {
    await fs.rename(old, target).catch(() => {})
    throw error
  }
  await fs.remove(old)
}

/** Rewrites a profile where it lives (directory or single file), atomically. */
export async function rewriteProfile(
  location: ProfileLocation,
  document: ProfileDocument,
  options: { fs?: ProfileFileSystem } = {},
): Promise<void> {
  if (location.scope === 'bundled') {
    throw new ProfileError(
      'profile_invalid',
      `profile '${location.name}' is bundled with mcp-kit and read-only; copy it with 'mcp-kit profile create'`,
    )
  }
  const fs = options.fs ?? nodeFileSystem
  if (location.form === 'directory') {
    await writeProfile(location.name, document, {
      root: location.root,
      scope: location.scope,
      force: true,
      fs,
    })
    return
  }
  const temporary = `${location.path}.tmp-${suffix()}`
  try {
    await fs.writeFile(temporary, json({ ...document.meta, tools: document.tools }))
    await fs.rename(temporary, location.path)
  } catch (error) {
    await fs.remove(temporary).catch(() => {})
    throw new ProfileError('profile_invalid', `cannot write ${location.path}: ${(error as Error).message}`, {
      cause: error,
    })
  }
}
