// Turning what we learned about a server (its launch spec, its tools) into a profile document,
// with secrets written as ${NAME} placeholders, never as values.

import { resolve } from 'node:path'
import type { Tool } from '@mcp-kit/client'
import type { ProfileDocument, ProfileMeta, ProfileTool, ResolvedReference } from '@mcp-kit/profiles'

export interface Placeholder {
  /** Where the secret was: `env API_KEY` or `header Authorization`. */
  where: string
  variable: string
}

/** `X-Api-Key` → `X_API_KEY`: the environment variable a header's value is read from. */
export function variableForHeader(header: string): string {
  const name = header
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
  return /^[A-Z_]/.test(name) ? name : `HEADER_${name}`
}

export interface LaunchSecrets {
  /** Environment variables given for the server (reference env.*, --env, --pass-env names). */
  env: readonly string[]
  /** HTTP headers given for the server (--header). */
  headers: readonly string[]
}

/** Launch settings for a profile from a resolved naked reference; secrets become placeholders. */
export function launchMeta(
  resolved: ResolvedReference,
  secrets: LaunchSecrets,
  cwd: string,
): { meta: ProfileMeta; placeholders: Placeholder[] } {
  const placeholders: Placeholder[] = []
  const server = resolved.server
  if (server.transport === 'http') {
    const meta: ProfileMeta = { url: server.url }
    const names = [...new Set([...Object.keys(server.headers ?? {}), ...secrets.headers])]
    if (names.length > 0) {
      meta.headers = {}
      for (const name of names) {
        const variable = variableForHeader(name)
        meta.headers[name] = `\${${variable}}`
        placeholders.push({ where: `header ${name}`, variable })
      }
    }
    return { meta, placeholders }
  }
  const args = [...server.args]
  // A script named relative to where the user stood: keep it findable from anywhere.
  const reference = resolved.reference
  if (
    reference.type === 'naked' &&
    (reference.launcher === 'node' || reference.launcher === 'python') &&
    args[0] !== undefined
  ) {
    args[0] = resolve(cwd, args[0])
  }
  const meta: ProfileMeta = { command: server.command, args }
  const names = [...new Set([...Object.keys(server.env ?? {}), ...secrets.env])]
  if (names.length > 0) {
    meta.env = {}
    for (const name of names) {
      meta.env[name] = `\${${name}}`
      placeholders.push({ where: `env ${name}`, variable: name })
    }
  }
  if (server.cwd !== undefined) meta.cwd = server.cwd
  // A command line names its files relative to where it was typed: run it from there.
  else if (reference.type === 'command') meta.cwd = cwd
  return { meta, placeholders }
}

/** One tool entry as a profile stores it: what the server said, to compare against later. */
export function toolEntry(tool: Tool, fileName: string): ProfileTool {
  const entry: ProfileTool = {}
  if (tool.name !== fileName) entry.tool = tool.name
  if (tool.title !== undefined) entry.title = tool.title
  if (tool.description !== undefined) entry.description = tool.description
  entry.inputSchema = tool.inputSchema
  if (tool.outputSchema !== undefined) entry.outputSchema = tool.outputSchema
  if (tool.annotations !== undefined) entry.annotations = tool.annotations
  return entry
}

/** Fields of a tool entry that came from the server (rewritten by update); the rest is the user's. */
export const serverFields = ['title', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const

/** A complete profile document for `meta` and `tools`, with the schema hash and its date. */
export async function buildDocument(
  meta: ProfileMeta,
  tools: readonly Tool[],
  hash: string,
  now: Date,
): Promise<ProfileDocument> {
  const { toolFileName } = await import('@mcp-kit/profiles/internal')
  const taken = new Set<string>()
  const entries: Record<string, ProfileTool> = {}
  for (const tool of tools) {
    const file = toolFileName(tool.name, taken)
    taken.add(file)
    entries[file] = toolEntry(tool, file)
  }
  return {
    meta: {
      ...meta,
      schema_hash: hash,
      schema_updated: now.toISOString(),
      schema_validation: meta.schema_validation ?? 'warn',
    },
    tools: entries,
  }
}
