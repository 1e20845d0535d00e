// The workspace's published packages: every package under packages/ and apps/ that is not
// private, found rather than listed so that a new package cannot be left out.

import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = fileURLToPath(new URL('../../..', import.meta.url))

/**
 * @typedef {{ directory: string, name: string, manifest: Record<string, any>, readme: string }} PublishedPackage
 * `directory` and `readme` are relative to the repository root.
 */

/** @returns {PublishedPackage[]} */
export function publishedPackages() {
  const found = []
  for (const parent of ['packages', 'apps']) {
    for (const entry of readdirSync(join(root, parent)).sort()) {
      const directory = `${parent}/${entry}`
      const manifestPath = join(root, directory, 'package.json')
      if (!existsSync(manifestPath)) continue
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'))
      if (manifest.private) continue
      found.push({ directory, name: manifest.name, manifest, readme: `${directory}/README.md` })
    }
  }
  return found
}

/**
 * The import specifiers a user can write for a package's types: its name and each subpath of
 * its `exports` map (except `./package.json`). Empty for a package that exports no types.
 * @param {PublishedPackage} published
 */
export function typedEntryPoints(published) {
  const { exports, types } = published.manifest
  if (exports === undefined) return types ? [published.name] : []
  const map =
    typeof exports === 'string' || !Object.keys(exports).some((key) => key.startsWith('.'))
      ? { '.': exports }
      : exports
  return Object.entries(map)
    .filter(([subpath, target]) => subpath !== './package.json' && hasTypes(target))
    .map(([subpath]) => (subpath === '.' ? published.name : `${published.name}/${subpath.slice(2)}`))
}

/** The subpath of the entry for mcp-kit's own packages: not public API, not covered by semver. */
export const internalSubpath = './internal'

/**
 * The typed entry points that are public API: all but `./internal`. A README names every export of
 * these.
 * @param {PublishedPackage} published
 */
export function publicEntryPoints(published) {
  const internal = internalEntryPoint(published)
  return typedEntryPoints(published).filter((specifier) => specifier !== internal)
}

/**
 * The specifier of a package's `./internal` entry (`@mcp-kit/client/internal`), or undefined when
 * it has none.
 * @param {PublishedPackage} published
 */
export function internalEntryPoint(published) {
  const { exports } = published.manifest
  if (exports === null || typeof exports !== 'object' || !(internalSubpath in exports)) return undefined
  return `${published.name}/${internalSubpath.slice(2)}`
}

/** @param {unknown} target */
function hasTypes(target) {
  if (typeof target === 'string') return target.endsWith('.d.ts')
  if (target === null || typeof target !== 'object') return false
  return Object.entries(target).some(([condition, value]) => condition === 'types' || hasTypes(value))
}

/** A range from the workspace catalog (pnpm-workspace.yaml), so the test installs what the repository builds with. */
export function catalogRange(name) {
  const workspace = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8')
  // The `catalog:` block: its indented lines, up to the next top-level key.
  const catalog = /^catalog:\n((?:[ \t]+.*\n|[ \t]*\n)*)/m.exec(workspace)?.[1] ?? ''
  const escaped = name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
  const match = new RegExp(`^\\s+"?${escaped}"?:\\s*(\\S+)\\s*$`, 'm').exec(catalog)
  if (!match?.[1]) throw new Error(`${name} is not in the catalog of pnpm-workspace.yaml`)
  return match[1]
}
