// How the CLI answers a server's questions (2025-11-25 server-to-client requests and 2026-07-28
// input_required rounds alike): elicitation forms are filled from --input/--input-json and the
// schema's defaults, and asked on the terminal for whatever is still missing; a URL to visit is
// shown and waited for on a terminal; roots are the working directory (or --root); sampling is
// answered by the answerer the flags or the profile chose (../sampling/), and declared only then.
// Without a terminal, a question the flags cannot answer fails with `input_required` (exit 6)
// naming the flags that would and listing the form.

import { basename, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { ElicitRequestParams, ElicitResult, InputHandler } from '@mcp-kit/client'
import { isRecord } from '@mcp-kit/core'
import { type InputArguments, parseInputFlags } from '../base/input-flags.js'
import type { Io } from '../base/io.js'
import { openTerminalPrompt } from '../base/terminal-prompt.js'
import { sanitizeLine } from '../output/sanitize.js'
import { clearStatus } from '../output/status.js'
import type { Sample } from '../sampling/create-sampler.js'
import type { SamplingChoice } from '../sampling/sampling-choice.js'
import { type Ask, askField, describeFormField, valueForTitle } from './form-fields.js'

export type { InputArguments }

type Schema = Record<string, unknown>

/**
 * Where questions are asked: a prompt and its end (undefined: no terminal to ask on). `signal`
 * aborts when the question is given up (--input-timeout, Ctrl-C): the prompt stops asking.
 */
export type OpenPrompt = (signal: AbortSignal) => { ask: Ask; close(): void } | undefined

/**
 * `openPrompt` asks on the terminal by default; `mcp-kit shell` asks through its own line editor,
 * which already reads the terminal. `sampling` is who answers sampling requests (samplingChoice);
 * without it sampling is not declared.
 */
export function createInputHandler(
  args: InputArguments,
  io: Io,
  openPrompt: OpenPrompt = (signal) => {
    // The question starts a line of its own, not after "calling …".
    clearStatus(io)
    return openTerminalPrompt({ ...io, signal: AbortSignal.any([io.signal, signal]) })
  },
  sampling?: SamplingChoice,
): InputHandler {
  const given = parseInputFlags(args)
  const roots = (args.root && args.root.length > 0 ? args.root : [io.cwd]).map((path) => {
    const absolute = resolve(io.cwd, path)
    return { uri: pathToFileURL(absolute).href, name: basename(absolute) || absolute }
  })

  async function fillForm(
    request: ElicitRequestParams & { requestedSchema?: Schema },
    signal: AbortSignal,
  ): Promise<ElicitResult> {
    const { ClientError } = await import('@mcp-kit/client')
    const { coerceArguments, formatProblems, validateArguments } = await import('@mcp-kit/schema')
    const schema = (request.requestedSchema ?? { type: 'object', properties: {} }) as Schema
    const properties = (isRecord(schema.properties) ? schema.properties : {}) as Record<string, Schema>
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : [])
    const values: Record<string, unknown> = {}
    for (const [name, property] of Object.entries(properties)) {
      if (property.default !== undefined) values[name] = property.default
    }
    const fromStrings: Record<string, string> = {}
    for (const [name, property] of Object.entries(properties)) {
      if (name in given.json) values[name] = given.json[name]
      const text = given.strings[name]
      if (text === undefined) continue
      // `--input size=Large` for the titled choice `{const: 'l', title: 'Large'}`.
      const titled = valueForTitle(property, text)
      if (titled !== undefined) values[name] = titled
      else fromStrings[name] = text
    }
    Object.assign(values, coerceArguments(fromStrings, schema))
    const missing = () => [...required].filter((name) => values[name] === undefined)
    const prompt = missing().length > 0 ? openPrompt(signal) : undefined
    if (prompt !== undefined) {
      try {
        io.stderr.write(`mcp-kit: the server asks: ${sanitizeLine(request.message)}\n`)
        for (const [name, property] of Object.entries(properties)) {
          const answer = await askField(prompt.ask, name, property, values[name], required.has(name), io)
          if (answer === undefined) continue
          values[name] =
            typeof answer === 'string' ? coerceArguments({ [name]: answer }, schema)[name] : answer
        }
        const confirm = (await prompt.ask('Send this answer? [Y/n, d to decline] ')).trim().toLowerCase()
        if (confirm === 'd' || confirm === 'decline') return { action: 'decline' }
        if (confirm === 'n' || confirm === 'no') return { action: 'cancel' }
      } finally {
        prompt.close()
      }
    }
    const absent = missing()
    if (absent.length > 0) {
      const fields = Object.entries(properties).map(([name, property]) =>
        describeFormField(name, property, required.has(name), values[name]),
      )
      throw new ClientError(
        'input_required',
        `the server asks "${sanitizeLine(request.message)}" and needs ${absent.map((name) => `'${sanitizeLine(name)}'`).join(', ')}: run it on a terminal, or answer with --input ${sanitizeLine(absent[0] ?? 'name')}=… (or --input-json '{…}'). The form:\n${fields.join('\n')}`,
        { details: { missing: absent } },
      )
    }
    const check = validateArguments(values, schema)
    if (!check.ok) {
      throw new ClientError(
        'input_required',
        `the answer to "${sanitizeLine(request.message)}" does not fit the form: ${formatProblems(check.errors).split('\n').join('; ')}`,
      )
    }
    return { action: 'accept', content: values as ElicitResult['content'] }
  }

  async function visitUrl(
    request: ElicitRequestParams & { url?: string },
    signal: AbortSignal,
  ): Promise<ElicitResult> {
    const { ClientError } = await import('@mcp-kit/client')
    const url = sanitizeLine(String(request.url ?? ''))
    const prompt = openPrompt(signal)
    if (prompt === undefined) {
      throw new ClientError(
        'input_required',
        `the server asks you to open ${url} (${sanitizeLine(request.message)}); run it on a terminal to continue after visiting it`,
      )
    }
    try {
      io.stderr.write(`mcp-kit: the server asks: ${sanitizeLine(request.message)}\n  open: ${url}\n`)
      const answer = (await prompt.ask('Press Enter once you are done (d to decline): ')).trim().toLowerCase()
      return answer === 'd' || answer === 'decline' ? { action: 'decline' } : { action: 'accept' }
    } finally {
      prompt.close()
    }
  }

  // The answerer's code loads with the first sampling request.
  let sampler: Promise<Sample> | undefined
  const samplingHandler: Pick<InputHandler, 'sample' | 'samplingTools'> =
    sampling === undefined
      ? {}
      : {
          // Every answerer can call tools: a command and a person by a JSON result, an endpoint natively.
          samplingTools: true,
          sample: async (request, context) => {
            sampler ??= import('../sampling/create-sampler.js').then(({ createSampler }) =>
              createSampler(sampling, io, openPrompt, args),
            )
            return (await sampler)(request, context)
          },
        }
  return {
    elicit: (request, context) =>
      (request as { mode?: string }).mode === 'url'
        ? visitUrl(request as never, context.signal)
        : fillForm(request as never, context.signal),
    roots: async () => roots,
    ...samplingHandler,
  }
}
