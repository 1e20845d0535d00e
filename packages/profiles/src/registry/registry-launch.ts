// A registry entry (`server.json`) turned into a launch: a package becomes the command line its
// runtime runs (registry-package.ts), a remote becomes a URL and headers. Pure: the entry and the answers come in, a ServerSpec goes out.
// Anything the entry says that mcp-kit would not run as written is refused, never adapted.

import { isRecord } from '@mcp-kit/core'
import { ProfileError } from '../errors.js'
import type {
  RegistryAnswers,
  RegistryPackage,
  RegistryServer,
  RegistryTransport,
} from '../registry-types.js'
import type { HttpServerSpec, ServerSpec } from '../types.js'
import { registryCandidates } from './registry-choice.js'
import {
  fieldText,
  fillTemplate,
  type InputContext,
  type RegistryInput,
  refuseMissing,
} from './registry-inputs.js'
import { invalid, packageLaunch, type RegistryPackageSource, Unsupported } from './registry-package.js'

export type { RegistryInput } from './registry-inputs.js'

export interface RegistryLaunchOptions {
  /** Answers to the entry's inputs, by input name: a list of values for a repeated argument. */
  values?: RegistryAnswers
  /**
   * Which of the entry's launches: `package`, `remote`, a registry type (`npm`, `pypi`, `oci`,
   * `nuget`) or a remote type (`streamable-http`, `sse`) — the first of those mcp-kit can run —
   * or exactly one, `package:N` or `remote:N` (1-based). Default: the first one mcp-kit can run,
   * packages before remotes.
   */
  choose?: string
  /** Turns the entry's literal text into what the caller writes (a profile escapes `${`). */
  literal?: (text: string) => string
  /** What is written for an answered input (a profile writes `${secret:…}` for a secret one). */
  answerText?: (input: RegistryInput, value: string) => string
  /**
   * Text for a required input that has no value (`<API_KEY>`): the launch is only shown, so a
   * missing value is no error.
   */
  placeholder?: (input: RegistryInput) => string
}

/** What was chosen from the entry; `choice` names exactly it (`package:1`, `remote:2`). */
export type RegistryLaunchSource =
  | RegistryPackageSource
  | { kind: 'remote'; choice: string; type: string; url: string }

export interface RegistryLaunch {
  server: ServerSpec
  source: RegistryLaunchSource
  /** Every input of the chosen launch, answered or not. */
  inputs: RegistryInput[]
}

function remoteLaunch(
  remote: RegistryTransport,
  choice: string,
  context: InputContext,
): { server: HttpServerSpec; source: RegistryLaunchSource } {
  const type = typeof remote.type === 'string' ? remote.type : ''
  if (type !== 'streamable-http' && type !== 'sse')
    throw new Unsupported(`a remote of type ${JSON.stringify(type.slice(0, 40))}`)
  const template = typeof remote.url === 'string' ? remote.url : ''
  // A value inside the URL is one component of it; a leading `{baseUrl}` is a URL of its own.
  const url = fillTemplate(
    template,
    remote.variables,
    context,
    (value, atStart) => (atStart ? value : encodeURIComponent(value)),
    'the remote URL',
  )
  if (!url.includes('${')) {
    let parsed: URL | undefined
    try {
      parsed = new URL(url)
    } catch {}
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || /[{}]/.test(url)) {
      const missing = context.inputs.some((input) => input.required && !input.answered)
      if (!missing)
        throw invalid(
          context.entry,
          `the remote URL ${JSON.stringify(url.slice(0, 200))} is not an http(s) URL`,
        )
    }
  }
  const headers: Record<string, string> = {}
  const list = remote.headers
  if (list !== undefined && !Array.isArray(list)) throw invalid(context.entry, 'headers is not a list')
  for (const [index, item] of (list ?? []).entries()) {
    const name = isRecord(item) && typeof item.name === 'string' ? item.name : ''
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw invalid(
        context.entry,
        `headers[${index}] names ${JSON.stringify(name.slice(0, 80))}, not a header`,
      )
    const text = fieldText(name, 'header', item, context)
    if (text !== undefined)
      Object.defineProperty(headers, name, {
        value: text,
        enumerable: true,
        writable: true,
        configurable: true,
      })
  }
  const server: HttpServerSpec = { transport: 'http', url }
  if (Object.keys(headers).length > 0) server.headers = headers
  return { server, source: { kind: 'remote', choice, type, url: template } }
}

/**
 * Turns a registry entry into a launch. Errors are `ProfileError`s: `invalid_reference` (the
 * entry says something mcp-kit will not run, or nothing it can), `missing_input` (required values
 * without an answer, all named in `details.missing`), `invalid_input` (an answer that does not fit).
 */
export function registryLaunch(server: RegistryServer, options: RegistryLaunchOptions = {}): RegistryLaunch {
  const entry = `${typeof server.name === 'string' ? server.name.slice(0, 200) : '(unnamed)'}${typeof server.version === 'string' ? `@${server.version.slice(0, 80)}` : ''}`
  const list = registryCandidates(server, options.choose)
  const refusals: string[] = []
  for (const candidate of list) {
    const context: InputContext = {
      values: options.values ?? {},
      literal: options.literal ?? ((text) => text),
      answerText: options.answerText ?? ((_input, value) => value),
      inputs: [],
      entry,
      ...(options.placeholder === undefined ? {} : { placeholder: options.placeholder }),
    }
    try {
      const launch =
        candidate.kind === 'package'
          ? packageLaunch(candidate.item as RegistryPackage, candidate.choice, context)
          : remoteLaunch(candidate.item as RegistryTransport, candidate.choice, context)
      if (options.placeholder === undefined) refuseMissing(context)
      return { ...launch, inputs: context.inputs }
    } catch (error) {
      if (!(error instanceof Unsupported)) throw error
      refusals.push(error.message)
    }
  }
  const what = options.choose === undefined ? '' : ` of the kind ${JSON.stringify(options.choose)}`
  throw new ProfileError(
    'invalid_reference',
    list.length === 0
      ? `registry entry ${entry} has no package or remote${what} to run`
      : `registry entry ${entry} has nothing mcp-kit can run${what}: it offers ${refusals.join('; ')}`,
    { details: { entry } },
  )
}
