// Where profiles are looked for, first match wins: $MCP_KIT_HOME, project .mcp-kit/ directories
// (walking up from cwd to the repository or filesystem root), the user's config directory, and
// directories of bundled profiles shipped with the app.

import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import type { Variables } from '../substitute.js'
import type { ProfileScope } from '../types.js'
import { nodeFileSystem, type ProfileFileSystem } from './file-system.js'

/** A directory holding a `profiles/` directory. */
export interface ProfileRoot {
  scope: ProfileScope
  dir: string
}

export interface SearchOptions {
  cwd?: string
  env?: Variables
  homeDir?: string
  /** Roots of bundled profiles (each holds a `profiles/` directory), searched last. */
  bundledDirs?: readonly string[]
  fs?: ProfileFileSystem
  platform?: NodeJS.Platform
}

/** The user-scope root: $XDG_CONFIG_HOME/mcp-kit, else ~/.config/mcp-kit (%APPDATA%\mcp-kit on Windows). */
export function userProfileRoot(options: SearchOptions = {}): string {
  const env = options.env ?? process.env
  const home = options.homeDir ?? env.HOME ?? homedir()
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'mcp-kit')
  if ((options.platform ?? process.platform) === 'win32' && env.APPDATA) return join(env.APPDATA, 'mcp-kit')
  return join(home, '.config', 'mcp-kit')
}

/** The project-scope root for writing: `.mcp-kit` in the working directory. */
export function projectProfileRoot(options: SearchOptions = {}): string {
  return join(resolve(options.cwd ?? process.cwd()), '.mcp-kit')
}

async function projectRoots(cwd: string, fs: ProfileFileSystem): Promise<ProfileRoot[]> {
  const roots: ProfileRoot[] = []
  let dir = resolve(cwd)
  for (;;) {
    if ((await fs.kind(join(dir, '.mcp-kit'))) === 'directory')
      roots.push({ scope: 'project', dir: join(dir, '.mcp-kit') })
    const parent = dirname(dir)
    if (parent === dir || (await fs.kind(join(dir, '.git'))) !== undefined) return roots
    dir = parent
  }
}

/** All roots in search order. */
export async function profileRoots(options: SearchOptions = {}): Promise<ProfileRoot[]> {
  const env = options.env ?? process.env
  const fs = options.fs ?? nodeFileSystem
  const roots: ProfileRoot[] = []
  if (env.MCP_KIT_HOME) roots.push({ scope: 'env', dir: resolve(env.MCP_KIT_HOME) })
  roots.push(...(await projectRoots(options.cwd ?? process.cwd(), fs)))
  roots.push({ scope: 'user', dir: userProfileRoot(options) })
  for (const dir of options.bundledDirs ?? []) roots.push({ scope: 'bundled', dir: resolve(dir) })
  return roots
}
