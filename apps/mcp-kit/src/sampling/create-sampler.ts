// The answerer a SamplingChoice names, as the client's `input.sample`: a command, an endpoint or
// the person at the terminal, with the API key from the secret store or $MCP_KIT_SAMPLING_KEY,
// and --verbose lines saying who answered and what the server asked that mcp-kit does not do.

import type { InputContext, SamplingRequest, SamplingResult } from '@mcp-kit/client'
import { CliError } from '../base/errors.js'
import type { Io } from '../base/io.js'
import { diagnostics } from '../output/diagnostics.js'
import { sanitizeLine } from '../output/sanitize.js'
import { commandSampler } from './command-sampler.js'
import { endpointSampler } from './endpoint-sampler.js'
import { type OpenAnswerPrompt, personSampler } from './person-sampler.js'
import type { SamplingChoice } from './sampling-choice.js'

export type Sample = (request: SamplingRequest, context: InputContext) => Promise<SamplingResult>

/** The endpoint's API key: the secret store's entry named, else $MCP_KIT_SAMPLING_KEY, else none. */
export async function samplingKey(keySecret: string | undefined, io: Io): Promise<string | undefined> {
  if (keySecret !== undefined) {
    const { readSecrets } = await import('@mcp-kit/profiles')
    const value = (await readSecrets({ env: io.env }))[keySecret]
    if (value === undefined)
      throw new CliError(
        'missing_secret',
        `the secret store has no ${JSON.stringify(keySecret)} for the sampling endpoint's key: set it with mcp-kit profile secret set ${keySecret}`,
      )
    return value
  }
  const fromEnvironment = io.env.MCP_KIT_SAMPLING_KEY
  return fromEnvironment === undefined || fromEnvironment === '' ? undefined : fromEnvironment
}

function answerer(choice: SamplingChoice, io: Io, openPrompt: OpenAnswerPrompt): Sample {
  switch (choice.kind) {
    case 'command':
      return commandSampler({ argv: choice.argv, cwd: io.cwd, env: io.env })
    case 'endpoint':
      return endpointSampler({
        base: choice.base,
        model: choice.model,
        key: () => samplingKey(choice.keySecret, io),
      })
    case 'person':
      return personSampler(io, openPrompt)
  }
}

export function createSampler(
  choice: SamplingChoice,
  io: Io,
  openPrompt: OpenAnswerPrompt,
  flags: { verbose?: boolean; quiet?: boolean },
): Sample {
  const say = diagnostics(io, flags)
  const sample = answerer(choice, io, openPrompt)
  return async (request, context) => {
    if (request.includeContext !== undefined && request.includeContext !== 'none')
      say.verbose(
        `the server asks to include context from ${sanitizeLine(request.includeContext)} in sampling; mcp-kit includes none`,
      )
    const started = performance.now()
    const result = await sample(request, context)
    say.verbose(
      `sampling answered by ${result.model} (${result.stopReason ?? 'no stop reason'}) in ${Math.round(performance.now() - started)} ms`,
    )
    return result
  }
}
