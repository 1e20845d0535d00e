// The flags that say which MCP Registry `mcp+registry://` references (and `mcp-kit registry …`)
// use, and how to authenticate to a private one. Only data: builders import it for `--help`.

import type { Options } from 'yargs'

export const registryFlags = {
  registry: {
    type: 'string',
    describe:
      'MCP Registry for mcp+registry:// references (default: $MCP_KIT_REGISTRY, else https://registry.modelcontextprotocol.io)',
    group: 'Registry:',
  },
  'registry-header': {
    type: 'string',
    array: true,
    describe:
      "Header for a private registry, 'Name: value' (repeatable; in single quotes, ${NAME} and ${secret:KEY} are filled in)",
    group: 'Registry:',
  },
} as const satisfies Record<string, Options>

/** Which of an entry's packages and remotes to run (commands that run one, and `registry show`). */
export const registryChoiceFlag = {
  'registry-choice': {
    type: 'string',
    describe:
      "Which of a registry entry's launches: package or remote, a type (npm, pypi, oci, nuget, streamable-http, sse), or package:N / remote:N as 'registry show' numbers them (default: the first mcp-kit can run)",
    group: 'Registry:',
  },
} as const satisfies Record<string, Options>

export interface RegistryArguments {
  registry?: string
  'registry-header'?: string[]
  'registry-choice'?: string
  /** Answers to the entry's inputs (`--input NAME=value`), as to a server's questions. */
  input?: string[]
  'input-json'?: string
  /** `mcp-kit registry launch FILE`: the entry comes from this server.json, not a registry. */
  registryFile?: string
  /** Answers known before the flags' (a profile's, taken to another version); the flags win. */
  answers?: Readonly<Record<string, string | string[]>>
  /** How to give input NAME where the answers do not come from --input (a --config entry). */
  answerHint?: (name: string) => string
}
