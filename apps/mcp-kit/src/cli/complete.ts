// Shell completion: what `mcp-kit --get-yargs-completions <words…>` answers (the completion
// scripts call it on every Tab). yargs completes commands and flags from their definitions;
// this completes what only mcp-kit knows: references (`@profile`, `@profile/tool`, a query's
// `tool=` and parameters, the `mcp+…://` schemes), profile names, and `key=value` arguments,
// all from profile files. No server is started and nothing heavier than @mcp-kit/profiles loads.

import type { ProfileTool } from '@mcp-kit/profiles'
import type { Argv } from 'yargs'
import type { Io } from '../base/io.js'
import type { Shell } from '../commands/completion/scripts.js'
import { sanitizeLine } from '../output/sanitize.js'
import { profileOptions } from '../session/reference.js'

// Type-only: the module itself loads when a completion is asked for.
type ArgumentNames = typeof import('../session/argument-names.js')
type Candidate = import('../session/argument-names.js').Candidate

type Slot =
  | { kind: 'reference' }
  | { kind: 'profile' }
  | { kind: 'secret' }
  | { kind: 'arguments'; reference: string }

const schemes = ['mcp+npx://', 'mcp+uvx://', 'mcp+node://', 'mcp+python://', 'mcp+http://', 'mcp+https://']
const referenceCommands = new Set(['inspect', 'watch', 'shell'])
const callCommands = new Set(['cat', 'head', 'tail', 'put'])
const profileCommands = new Set(['info', 'validate', 'diff', 'update'])
const referencePattern = /^@([A-Za-z0-9][A-Za-z0-9._-]*)(?:\/([^?]*))?(?:\?(.*))?$/

/** Which kind of word the positional at the end of `positionals` is (command words first). */
function slotOf(positionals: readonly string[]): Slot | undefined {
  const [command, sub] = positionals
  const index = positionals.length - 1
  if (command === undefined || index === 0) return undefined
  if (referenceCommands.has(command)) return index === 1 ? { kind: 'reference' } : undefined
  if (callCommands.has(command)) {
    if (index === 1) return { kind: 'reference' }
    return { kind: 'arguments', reference: positionals[1] as string }
  }
  if (command === 'serve') return { kind: 'reference' }
  if (
    command === 'profile' &&
    sub === 'secret' &&
    index === 3 &&
    ['set', 'remove'].includes(positionals[2] ?? '')
  )
    return { kind: 'secret' }
  if (index !== 2) return undefined
  if (command === 'auth' && sub !== undefined && ['login', 'status', 'logout'].includes(sub))
    return { kind: 'reference' }
  if (command === 'task' && (sub === 'get' || sub === 'cancel')) return { kind: 'reference' }
  if (command === 'profile' && sub !== undefined) {
    if (profileCommands.has(sub)) return { kind: 'profile' }
    if (sub === 'version') return { kind: 'reference' }
  }
  return undefined
}

interface SavedTool {
  /** The entry's name (`@profile/<entry>`). */
  entry: string
  /** The server's name for the tool. */
  name: string
  description?: string
  inputSchema?: unknown
}

/** Profiles and what they saved, read once per completion. */
function profileCatalog(io: Io) {
  const options = { ...profileOptions(io), substitute: false }
  const tools = new Map<string, Promise<SavedTool[]>>()
  return {
    async names(): Promise<Array<{ name: string; scope: string }>> {
      const { listProfiles } = await import('@mcp-kit/profiles')
      return (await listProfiles(options))
        .filter((summary) => summary.active)
        .map((summary) => ({ name: summary.name, scope: summary.scope }))
    },
    /** Keys in the secret store and keys profiles refer to (never a value). */
    async secretKeys(): Promise<string[]> {
      const { listProfiles, loadProfile, loadProfileDocument, readSecrets, secretKeys } = await import(
        '@mcp-kit/profiles'
      )
      const keys = new Set(Object.keys(await readSecrets({ env: io.env })))
      for (const summary of await listProfiles(options)) {
        if (!summary.active) continue
        try {
          secretKeys(await loadProfileDocument(await loadProfile(summary.name, options), options), keys)
        } catch {
          // A broken profile refers to nothing we can see.
        }
      }
      return [...keys].sort()
    },
    tools(name: string): Promise<SavedTool[]> {
      let found = tools.get(name)
      if (!found) {
        found = (async () => {
          const { loadProfile, loadProfileDocument } = await import('@mcp-kit/profiles')
          const profile = await loadProfile(name, options)
          const document = await loadProfileDocument(profile, options)
          return Object.entries(document.tools).map(([entry, tool]: [string, ProfileTool]) => {
            const saved: SavedTool = { entry, name: tool.tool ?? entry, inputSchema: tool.inputSchema }
            if (typeof tool.description === 'string') saved.description = tool.description
            return saved
          })
        })().catch(() => [])
        tools.set(name, found)
      }
      return found
    },
  }
}

type Catalog = ReturnType<typeof profileCatalog>

function findTool(tools: readonly SavedTool[], name: string): SavedTool | undefined {
  return tools.find((tool) => tool.entry === name) ?? tools.find((tool) => tool.name === name)
}

/** `@p/tool?a=1&b` → the profile, the tool (path or `tool=`), and the query's segments. */
function splitReference(reference: string) {
  const match = referencePattern.exec(reference)
  if (!match) return undefined
  const [, profile, path, query] = match as unknown as [
    string,
    string,
    string | undefined,
    string | undefined,
  ]
  const segments = query === undefined ? [] : query.split('&')
  const toolSegment = segments.find((segment) => segment.startsWith('tool='))
  const tool = path !== undefined && path !== '' ? path : toolSegment?.slice('tool='.length)
  return { profile, path, query, segments, tool }
}

async function referenceCandidates(current: string, catalog: Catalog, names: ArgumentNames) {
  const parts = splitReference(current)
  const candidates: Candidate[] = []
  if (parts === undefined || (parts.path === undefined && parts.query === undefined)) {
    // A profile name, or the start of a naked reference.
    for (const scheme of schemes) if (scheme.startsWith(current)) candidates.push({ word: scheme })
    if (current !== '' && !current.startsWith('@')) return candidates
    const profiles = (await catalog.names()).filter(({ name }) => `@${name}`.startsWith(current))
    for (const { name, scope } of profiles)
      candidates.push({ word: `@${name}`, description: `${scope} profile` })
    // One profile left: offer its tools as well, so the next Tab lists them.
    const only = profiles.length === 1 ? profiles[0] : undefined
    if (only) {
      for (const tool of await catalog.tools(only.name)) {
        const word = `@${only.name}/${tool.entry}`
        if (names.isSafeWord(word))
          candidates.push({ word, description: names.shortDescription(tool.description) })
      }
    }
    return candidates
  }
  const tools = await catalog.tools(parts.profile)
  if (parts.query === undefined) {
    // `@profile/<tool>`
    for (const tool of tools) {
      const word = `@${parts.profile}/${tool.entry}`
      if (names.isSafeWord(word))
        candidates.push({ word, description: names.shortDescription(tool.description) })
    }
    return candidates
  }
  // In the query: the segment after the last ? or &.
  const base = current.slice(0, Math.max(current.lastIndexOf('?'), current.lastIndexOf('&')) + 1)
  const partial = current.slice(base.length)
  const earlier = parts.segments.slice(0, -1)
  const hasPathTool = parts.path !== undefined && parts.path !== ''
  if (!hasPathTool && partial.startsWith('tool=')) {
    for (const tool of tools)
      candidates.push({
        word: `${base}tool=${tool.name}`,
        description: names.shortDescription(tool.description),
      })
  } else if (
    parts.tool !== undefined &&
    (hasPathTool || earlier.some((segment) => segment.startsWith('tool=')))
  ) {
    const tool = findTool(tools, parts.tool)
    for (const candidate of names.argumentCandidates(tool?.inputSchema, partial, names.givenNames(earlier)))
      candidates.push({ ...candidate, word: `${base}${candidate.word}` })
  } else if (!hasPathTool) {
    candidates.push({ word: `${base}tool=`, description: 'the tool to call' })
    for (const target of ['tools', 'resources', 'templates', 'prompts'])
      candidates.push({ word: `${base}list=${target}` })
  }
  // What was typed may hold blanks (a quoted word: `'@p/tool?q=a b&`); what is offered after it
  // may not, and neither may break the one-candidate-a-line answer.
  if (sanitizeLine(base) !== base) return []
  return candidates.filter((candidate) => names.isSafeWord(candidate.word.slice(base.length)))
}

async function argumentWordCandidates(
  reference: string,
  earlierWords: readonly string[],
  current: string,
  catalog: Catalog,
  names: ArgumentNames,
): Promise<Candidate[]> {
  const parts = splitReference(reference)
  if (parts?.tool === undefined || parts.tool === '') return []
  const tool = findTool(await catalog.tools(parts.profile), parts.tool)
  if (!tool) return []
  const given = names.givenNames([...parts.segments, ...earlierWords])
  return names.argumentCandidates(tool.inputSchema, current, given)
}

function format(candidate: Candidate, shell: Shell): string {
  if (shell === 'bash' || candidate.description === undefined) {
    return shell === 'zsh' ? candidate.word.replace(/:/g, '\\:') : candidate.word
  }
  return shell === 'zsh'
    ? `${candidate.word.replace(/:/g, '\\:')}:${candidate.description}`
    : `${candidate.word}\t${candidate.description}`
}

type Builder = (yargs: Argv) => unknown
type Handlers = Record<string, { builder?: unknown }>

/** The subcommands a yargs instance knows (yargs internals, hence the guards). */
function subcommands(parser: Argv): Handlers {
  const internals = (
    parser as unknown as {
      getInternalMethods?: () => { getCommandInstance?: () => { getCommandHandlers?: () => Handlers } }
    }
  ).getInternalMethods?.()
  return internals?.getCommandInstance?.()?.getCommandHandlers?.() ?? {}
}

/**
 * The flags that take no value at each command level, from the commands' own definitions, so
 * that `--raw @p/` is read as a flag and a reference, and `--timeout 5` as a flag and its value.
 */
async function flagReader() {
  const { default: yargs } = await import('yargs')
  const { commands } = await import('../commands/index.js')
  let handlers: Handlers = Object.fromEntries(
    commands.map((module) => [module.command.split(' ')[0] as string, { builder: module.builder }]),
  )
  const booleans = new Set(['help', 'h', 'version', 'V'])
  return {
    booleans,
    /** Enter a command level: its flags join those known so far. */
    enter(word: string): void {
      const builder = Object.hasOwn(handlers, word) ? handlers[word]?.builder : undefined
      if (typeof builder !== 'function') {
        handlers = {}
        return
      }
      const parser = yargs([])
      ;(builder as Builder)(parser)
      const options = (parser as unknown as { getOptions(): unknown }).getOptions() as {
        boolean: string[]
        alias: Record<string, string[]>
      }
      for (const name of options.boolean) {
        booleans.add(name)
        for (const alias of options.alias[name] ?? []) booleans.add(alias)
      }
      handlers = subcommands(parser)
    },
  }
}

/**
 * Reads the words before the one being typed: the positionals (command words first), and the
 * flag whose value is being typed, if any.
 */
async function readLine(words: readonly string[]): Promise<{ positionals: string[]; flag?: string }> {
  const flags = await flagReader()
  const positionals: string[] = []
  const commandDepth = () =>
    positionals[0] === 'profile' && positionals[1] === 'secret'
      ? 3
      : positionals[0] === 'profile' || positionals[0] === 'auth'
        ? 2
        : 1
  let pending: string | undefined
  let rest = false
  for (const word of words.slice(1, -1)) {
    if (pending !== undefined) {
      pending = undefined
      continue
    }
    if (!rest && word === '--') rest = true
    else if (!rest && word.startsWith('--')) {
      const name = word.slice(2)
      if (!name.includes('=') && !name.startsWith('no-') && !flags.booleans.has(name)) pending = name
    } else if (!rest && /^-[^-\d]/.test(word)) {
      const last = word.slice(-1)
      if (word.length === 2 && !flags.booleans.has(last)) pending = last
    } else {
      positionals.push(word)
      if (positionals.length <= commandDepth()) flags.enter(word)
    }
  }
  return pending === undefined ? { positionals } : { positionals, flag: pending }
}

/**
 * Candidates for the last of `words` (the program name first), or, when yargs should answer
 * (commands, flags, a flag's choices), whether the word is a flag's value.
 */
export async function completeWords(
  words: readonly string[],
  io: Io,
  shell: Shell,
): Promise<string[] | { flagValue: boolean }> {
  const current = words.at(-1) ?? ''
  if (current.startsWith('-')) return { flagValue: false }
  const line = await readLine(words)
  const slot: Slot | undefined =
    line.flag === undefined
      ? slotOf([...line.positionals, current])
      : line.flag === 'from'
        ? { kind: 'reference' }
        : undefined
  if (slot === undefined) return { flagValue: line.flag !== undefined }
  const names = await import('../session/argument-names.js')
  const catalog = profileCatalog(io)
  let candidates: Candidate[]
  try {
    if (slot.kind === 'reference') candidates = await referenceCandidates(current, catalog, names)
    else if (slot.kind === 'profile') {
      const at = current.startsWith('@') ? '@' : ''
      candidates = (await catalog.names()).map(({ name, scope }) => ({
        word: `${at}${name}`,
        description: `${scope} profile`,
      }))
    } else if (slot.kind === 'secret') {
      candidates = (await catalog.secretKeys()).map((word) => ({ word }))
    } else {
      const earlier = line.positionals.slice(2)
      candidates = await argumentWordCandidates(slot.reference, earlier, current, catalog, names)
    }
  } catch {
    candidates = [] // a broken profile completes nothing; the command itself will say why
  }
  return candidates
    .filter((candidate) => candidate.word.startsWith(current))
    .map((candidate) => format(candidate, shell))
}

/**
 * For what yargs completes: its own answers, less the `--v` it offers for -v after `--`, and
 * for a flag's value only the flag's choices (else nothing: the shell offers file names).
 */
export function yargsCompleter(flagValue: boolean) {
  return (
    _current: string,
    _argv: unknown,
    fallback: (onCompleted?: (error: Error | null, completions: string[] | undefined) => void) => unknown,
    done: (completions: string[]) => void,
  ): void => {
    fallback((_error, completions) =>
      done(
        (completions ?? []).filter(
          (completion) =>
            !/^--[^-](?:$|[\t:])/.test(completion) && !(flagValue && completion.startsWith('-')),
        ),
      ),
    )
  }
}
