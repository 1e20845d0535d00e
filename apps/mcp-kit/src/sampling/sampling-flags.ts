// The flags that say who answers a server's sampling requests (`sampling/createMessage`): a
// command, an OpenAI-compatible endpoint, or the person at the terminal. Without one, mcp-kit
// declares no sampling. Only data: builders import it for `--help`.

import type { Options } from 'yargs'

export const samplingFlags = {
  'sampling-command': {
    type: 'string',
    describe:
      'Answer sampling requests with this program (run without a shell): the request as JSON on stdin, the answer (a JSON result or plain text) on stdout',
    group: 'Sampling:',
  },
  'sampling-url': {
    type: 'string',
    describe:
      'Answer sampling requests with an OpenAI-compatible chat-completions endpoint (e.g. http://127.0.0.1:11434/v1 for Ollama)',
    group: 'Sampling:',
  },
  'sampling-model': {
    type: 'string',
    describe:
      "The endpoint's model (default: the first of its models that the server's hints name, else the first it lists)",
    group: 'Sampling:',
  },
  'sampling-key-secret': {
    type: 'string',
    describe: "The secret store's key holding the endpoint's API key (else $MCP_KIT_SAMPLING_KEY)",
    group: 'Sampling:',
  },
  'sampling-ask': {
    type: 'boolean',
    describe:
      'Answer sampling requests yourself: the messages are shown on the terminal and you type the answer',
    group: 'Sampling:',
  },
} as const satisfies Record<string, Options>

export interface SamplingArguments {
  'sampling-command'?: string
  'sampling-url'?: string
  'sampling-model'?: string
  'sampling-key-secret'?: string
  'sampling-ask'?: boolean
}
