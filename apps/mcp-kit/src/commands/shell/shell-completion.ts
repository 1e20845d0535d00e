// Tab in `mcp-kit shell`: commands and the live server's tools first, then a tool's parameters
// and their values, resource URIs, or a prompt's arguments.

import type { Prompt, Resource, Session } from '@mcp-kit/client'
import { argumentCandidates, type Candidate, givenNames, isSafeWord } from '../../session/argument-names.js'

/** The resources and prompts last listed, shared with the shell's `resources` and `prompts`. */
export interface ListCache {
  resources?: Promise<Resource[]>
  prompts?: Promise<Prompt[]>
}

const builtins: Candidate[] = [
  { word: 'tools', description: 'list the tools' },
  { word: 'resources', description: 'list the resources' },
  { word: 'templates', description: 'list the resource templates' },
  { word: 'prompts', description: 'list the prompts' },
  { word: 'read', description: 'read <uri>: read a resource' },
  { word: 'prompt', description: 'prompt <name> key=value…: get a prompt' },
  { word: 'call', description: 'call <tool> key=value…: call a tool (also when its name is a command)' },
  { word: 'help', description: 'help [tool]: commands, or one tool and its parameters' },
  { word: 'exit', description: 'leave the shell (or Ctrl-D)' },
]
const builtinNames = new Set([...builtins.map((builtin) => builtin.word), 'quit'])

/** Tab: commands and tools first, then a tool's parameters, resource URIs or prompt arguments. */
export function createCompleter(session: Session, lists: ListCache) {
  return (line: string, callback: (error: null, result: [string[], string]) => void): void => {
    const words = line.split(/\s+/)
    const current = words.at(-1) ?? ''
    const done = (candidates: Candidate[]) =>
      callback(null, [
        candidates.map((candidate) => candidate.word).filter((word) => word.startsWith(current)),
        current,
      ])
    const candidates = async (): Promise<Candidate[]> => {
      const tools = () =>
        session
          .listTools()
          .then((listed) =>
            listed.filter((tool) => isSafeWord(tool.name)).map((tool) => ({ word: tool.name })),
          )
      if (words.length === 1) return [...builtins, ...(await tools())]
      const [command, second] = words as [string, string]
      if (words.length === 2 && (command === 'help' || command === 'call')) return tools()
      if (command === 'read' && words.length === 2) {
        lists.resources ??= session.listResources()
        return (await lists.resources)
          .filter((resource) => isSafeWord(resource.uri))
          .map((resource) => ({ word: resource.uri }))
      }
      if (command === 'prompt') {
        lists.prompts ??= session.listPrompts()
        const listed = await lists.prompts
        if (words.length === 2)
          return listed.filter((prompt) => isSafeWord(prompt.name)).map((prompt) => ({ word: prompt.name }))
        const found = listed.find((prompt) => prompt.name === second)
        const schema = {
          properties: Object.fromEntries(
            (found?.arguments ?? []).map((argument) => [argument.name, { type: 'string' }]),
          ),
        }
        return argumentCandidates(schema, current, givenNames(words.slice(2, -1)))
      }
      if (builtinNames.has(command) && command !== 'call') return []
      const toolName = command === 'call' ? second : command
      const tool = (await session.listTools()).find((candidate) => candidate.name === toolName)
      const first = command === 'call' ? 2 : 1
      return argumentCandidates(tool?.inputSchema, current, givenNames(words.slice(first, -1)))
    }
    candidates().then(done, () => done([]))
  }
}
