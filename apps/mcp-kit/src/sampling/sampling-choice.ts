// Who answers sampling requests, from the flags or else the profile's `sampling` (flags naming an
// answerer replace the profile's; --sampling-model and --sampling-key-secret alone refine a
// profile's endpoint). Checked before anything connects: bad input is exit 2 (flags) or a profile
// error naming its file, never a failure in the middle of a call.

import type { Profile, ProfileSampling } from '@mcp-kit/profiles'
import { CliError } from '../base/errors.js'
import { splitWords } from '../base/shell-words.js'
import type { SamplingArguments } from './sampling-flags.js'

export type SamplingChoice =
  /** A program run once per request, without a shell. */
  | { kind: 'command'; argv: string[] }
  /** An OpenAI-compatible chat-completions endpoint (`base` ends before `/chat/completions`). */
  | { kind: 'endpoint'; base: string; model: string | undefined; keySecret: string | undefined }
  /** The person at the terminal. */
  | { kind: 'person' }

// Words a shell would act on: no shell runs the command, so they would reach it as arguments.
const shellOperators = /^(?:\||\|\||&|&&|;|;;|<|>|>>|<<|2>|2>&1|&>)$/
const shellInProgram = /[|&;<>()$`*?[\]{}!~]/
const controlCharacter = /[\u0000-\u001f\u007f]/

type Fail = (message: string, field: string) => never

function commandWords(words: readonly unknown[], fail: Fail): string[] {
  if (words.length === 0 || words.some((word) => typeof word !== 'string'))
    fail('the sampling command must be a program and its arguments, as strings', 'command')
  const argv = words as string[]
  const [program = ''] = argv
  if (program === '') fail('the sampling command names no program', 'command')
  if (argv.some((word) => controlCharacter.test(word)))
    fail('the sampling command contains a control character', 'command')
  if (program.startsWith('-'))
    fail(`the sampling command's program ${JSON.stringify(program)} looks like an option`, 'command')
  const operator = argv.find((word) => shellOperators.test(word))
  if (shellInProgram.test(program) || operator !== undefined) {
    fail(
      `the sampling command ${JSON.stringify(argv.join(' '))} has shell syntax (${operator ?? program}): no shell runs it, so give one program and its arguments, or put the pipeline in a script`,
      'command',
    )
  }
  return argv
}

function endpointBase(text: string, fail: Fail): string {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return fail(
      `the sampling URL ${JSON.stringify(text)} is not a URL (e.g. http://127.0.0.1:11434/v1)`,
      'url',
    )
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    fail(`the sampling URL must be http:// or https://, not ${url.protocol}`, 'url')
  if (url.username !== '' || url.password !== '')
    fail(
      'the sampling URL must not carry credentials: keep the key in the secret store (--sampling-key-secret)',
      'url',
    )
  url.search = ''
  url.hash = ''
  // The base (…/v1) or the chat-completions URL itself.
  return url.href.replace(/\/+$/, '').replace(/\/chat\/completions$/, '')
}

function secretName(value: unknown, fail: Fail, field: string): string | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'string' || value === '' || controlCharacter.test(value))
    fail('the key secret must be the name of an entry of the secret store', field)
  return value as string
}

function modelName(value: unknown, fail: Fail, field: string): string | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'string' || value.trim() === '' || controlCharacter.test(value))
    fail('the sampling model must be a model name', field)
  return value as string
}

/** The profile's `sampling`, checked (undefined when it has none). */
function profileChoice(profile: Profile): SamplingChoice | undefined {
  const value = profile.meta.sampling
  if (value === undefined) return undefined
  const file = profile.location.metaPath
  const fail: Fail = (message, field) => {
    throw new CliError('profile_invalid', `${file}: 'sampling': ${message}`, {
      details: { file, field: `sampling.${field}` },
    })
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail(
      'expected {"command": [...]}, {"url": "…", "model": "…", "keySecret": "…"} or {"ask": true}',
      'sampling',
    )
  const sampling = value as Record<string, unknown>
  const kinds = ['command', 'url', 'ask'].filter((key) => sampling[key] !== undefined)
  if (kinds.length !== 1) fail('give exactly one of "command", "url" or "ask"', kinds.join(',') || 'sampling')
  if (sampling.command !== undefined) {
    if (!Array.isArray(sampling.command))
      fail('"command" must be a list: the program and its arguments', 'command')
    return { kind: 'command', argv: commandWords(sampling.command as unknown[], fail) }
  }
  if (sampling.url !== undefined) {
    if (typeof sampling.url !== 'string') fail('"url" must be a string', 'url')
    return {
      kind: 'endpoint',
      base: endpointBase(sampling.url as string, fail),
      model: modelName(sampling.model, fail, 'model'),
      keySecret: secretName(sampling.keySecret, fail, 'keySecret'),
    }
  }
  if (sampling.ask !== true) fail('"ask" must be true', 'ask')
  return { kind: 'person' }
}

/** Who answers this command's sampling requests, or undefined: nobody (sampling is not declared). */
export function samplingChoice(args: SamplingArguments, profile?: Profile): SamplingChoice | undefined {
  const fail: Fail = (message, field) => {
    throw new CliError('usage', `--sampling-${field === 'keySecret' ? 'key-secret' : field}: ${message}`)
  }
  const given = (['sampling-command', 'sampling-url', 'sampling-ask'] as const).filter(
    (flag) => args[flag] !== undefined && args[flag] !== false,
  )
  if (given.length > 1)
    throw new CliError(
      'usage',
      `give one sampling answerer, not ${given.map((flag) => `--${flag}`).join(' and ')}`,
    )
  const model = modelName(args['sampling-model'], fail, 'model')
  const keySecret = secretName(args['sampling-key-secret'], fail, 'keySecret')
  let choice: SamplingChoice | undefined
  if (args['sampling-command'] !== undefined) {
    let words: string[]
    try {
      words = splitWords(args['sampling-command'])
    } catch (error) {
      throw new CliError('usage', `--sampling-command: ${(error as Error).message}`)
    }
    choice = { kind: 'command', argv: commandWords(words, fail) }
  } else if (args['sampling-url'] !== undefined) {
    choice = { kind: 'endpoint', base: endpointBase(args['sampling-url'], fail), model, keySecret }
  } else if (args['sampling-ask'] === true) {
    choice = { kind: 'person' }
  } else if (profile !== undefined) {
    choice = profileChoice(profile)
    if (choice?.kind === 'endpoint')
      choice = { ...choice, model: model ?? choice.model, keySecret: keySecret ?? choice.keySecret }
  }
  if ((model !== undefined || keySecret !== undefined) && choice?.kind !== 'endpoint') {
    throw new CliError(
      'usage',
      `${model !== undefined ? '--sampling-model' : '--sampling-key-secret'} goes with --sampling-url (an OpenAI-compatible endpoint)`,
    )
  }
  return choice
}

/** A choice as a profile keeps it (`mcp-kit profile create`, `--save`): the key's secret by name only. */
export function profileSampling(choice: SamplingChoice | undefined): ProfileSampling | undefined {
  switch (choice?.kind) {
    case undefined:
      return undefined
    case 'command':
      return { command: [...choice.argv] }
    case 'endpoint':
      return {
        url: choice.base,
        ...(choice.model === undefined ? {} : { model: choice.model }),
        ...(choice.keySecret === undefined ? {} : { keySecret: choice.keySecret }),
      }
    case 'person':
      return { ask: true }
  }
}
