// How `mcp-kit test` and the collections of `mcp-kit ui` connect a collection's servers and answer
// their questions: the CLI's own session opening (era cache, OAuth from the stored logins without
// a browser, environment, limits, --trace) and the `--input` mechanism fed with each step's
// answers.

import type { InputHandler, Session } from '@mcp-kit/client'
import type { Answers, ReferenceResolver, ServerConnection } from '@mcp-kit/collections'
import type { ResolvedReference } from '@mcp-kit/profiles'
import type { Io } from '../../base/io.js'
import { sanitizeLine } from '../../output/sanitize.js'
import type { ConnectionArguments } from '../../session/connection-flags.js'
import { createInputHandler } from '../../session/input-handler.js'
import { oauthOptions, openSession, serverReference } from '../../session/open-session.js'
import { resolveForCli } from '../../session/reference.js'

/** References resolve as on the command line, from the collection's directory (its project profiles). */
export function cliResolver(args: ConnectionArguments, io: Io): ReferenceResolver {
  return (reference, directory) => resolveForCli(reference, { ...io, cwd: directory }, args)
}

export function cliConnect(args: ConnectionArguments, io: Io) {
  return async (resolved: ResolvedReference, connection: ServerConnection): Promise<Session> => {
    const oauth =
      resolved.server.transport === 'http'
        ? await oauthOptions(resolved, args, io, serverReference(resolved), false)
        : undefined
    return openSession(
      resolved,
      // A collection runs on its own servers, never on a warm daemon's.
      { ...args, 'keep-alive': '0', protocol: connection.protocol ?? 'auto' },
      io,
      { input: connection.input, signal: connection.signal, ...(oauth === undefined ? {} : { oauth }) },
    )
  }
}

/**
 * A step's answers through the CLI's question handling (`--input` and `--input-json`, the form's
 * defaults, titled choices), with no terminal to ask on: what the answers leave out fails the step.
 */
export async function cliInputFor(args: ConnectionArguments, io: Io) {
  const { answersHandler } = await import('@mcp-kit/collections')
  const { ClientError } = await import('@mcp-kit/client')
  return (answers: Answers | undefined): InputHandler => {
    if (typeof answers === 'string') return answersHandler(answers)
    // Text answers go as --input does (a titled choice by its title, text taken as the field's
    // type asks); other values as --input-json.
    const entries = Object.entries(answers ?? {})
    const handler = createInputHandler(
      {
        input: entries
          .filter(([, value]) => typeof value === 'string')
          .map(([name, value]) => `${name}=${value}`),
        'input-json': JSON.stringify(
          Object.fromEntries(entries.filter(([, value]) => typeof value !== 'string')),
        ),
        root: args.root,
      },
      io,
      () => undefined,
    )
    return {
      ...handler,
      elicit: async (request, context) => {
        try {
          return await (handler.elicit as NonNullable<InputHandler['elicit']>)(request, context)
        } catch (error) {
          const missing = (error as { details?: { missing?: unknown } }).details?.missing
          if (!ClientError.isInstance(error) || error.code !== 'input_required' || !Array.isArray(missing))
            throw error
          throw new ClientError(
            'input_required',
            `the server asks "${sanitizeLine(request.message)}" and needs ${missing.map((name) => `'${sanitizeLine(String(name))}'`).join(', ')}: give ${missing.length === 1 ? 'it' : 'them'} in the step's answers`,
            { details: { missing } },
          )
        }
      },
    }
  }
}
