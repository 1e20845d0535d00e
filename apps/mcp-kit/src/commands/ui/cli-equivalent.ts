// "Copy as command": every action of the page as the mcp-kit command line that does the same,
// with secrets masked as everywhere else on the page.

import { maskText } from './mask.js'
import type { ServerEntry } from './server-entry.js'

/** A word quoted for a POSIX shell when it needs to be. */
export function shellWord(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word
  return `'${word.replaceAll("'", `'\\''`)}'`
}

export type Action =
  | { kind: 'inspect' }
  | { kind: 'call'; tool: string; args: Record<string, unknown> }
  | { kind: 'read'; uri: string }
  | { kind: 'prompt'; name: string; args: Record<string, string> }
  | { kind: 'diff' }
  | { kind: 'update' }
  | { kind: 'login' }

/** The reference part (or `-- cmd …` tail) of the server's command line. */
function target(entry: ServerEntry): { before: string[]; after: string[] } {
  const command = entry.source.command
  if (command !== undefined) return { before: [], after: ['--', ...command.map((word) => maskText(word))] }
  const reference = entry.source.reference
  if (reference !== undefined) return { before: [maskText(reference)], after: [] }
  const server = entry.resolved?.server
  if (server?.transport === 'http') return { before: [`mcp+${maskText(server.url)}`], after: [] }
  if (server?.transport === 'stdio')
    return { before: [], after: ['--', server.command, ...server.args].map((word) => maskText(word)) }
  return { before: [entry.id], after: [] }
}

export function cliEquivalent(entry: ServerEntry, action: Action): string {
  const { before, after } = target(entry)
  const profile = entry.resolved?.profile?.location.name
  let words: string[]
  switch (action.kind) {
    case 'inspect':
      words = ['mcp-kit', 'inspect', ...before, ...after]
      break
    case 'call': {
      const json = JSON.stringify(action.args)
      words = [
        'mcp-kit',
        'cat',
        ...before,
        '--tool',
        action.tool,
        ...(json === '{}' ? [] : ['--args', json]),
        ...after,
      ]
      break
    }
    case 'read':
      words = ['mcp-kit', 'cat', ...before, '--resource', action.uri, ...after]
      break
    case 'prompt': {
      const pairs = Object.entries(action.args).map(([key, value]) => `${key}=${value}`)
      words = ['mcp-kit', 'cat', ...before, '--prompt', action.name, ...pairs, ...after]
      break
    }
    case 'diff':
      words = ['mcp-kit', 'profile', 'diff', `@${profile ?? '?'}`]
      break
    case 'update':
      words = ['mcp-kit', 'profile', 'update', `@${profile ?? '?'}`, '--yes']
      break
    case 'login':
      words = ['mcp-kit', 'auth', 'login', ...before]
      break
  }
  return words.map((word) => (word === '--' ? word : shellWord(word))).join(' ')
}
