// The runtime of the modules `mcp-kit generate` writes: connect to the server a module was
// generated from, check that its tools are still the ones the module's types describe (by the
// module's schema policy), and calls that resolve to what those types promise. A module holds
// only its types, its method names and a GeneratedServer; everything that runs is here.

import type { CallToolResult } from '@modelcontextprotocol/client'
import { connect } from '../connect/connect.js'
import type { ConnectOptions } from '../connect/options.js'
import { ClientError } from '../errors.js'
import type { ServerSpec } from '../server-spec.js'
import { toolErrorText } from '../session/results.js'
import type { Session } from '../session/session.js'
import type { CallOptions } from '../session/types.js'
import { driftVerdict, type SchemaPolicy } from './drift-policy.js'
import { compareGenerated, type SchemaFingerprint } from './schema-drift.js'
import { expandServer } from './variables.js'

/** What a generated module records about its server. */
export interface GeneratedServer extends SchemaFingerprint {
  /** The reference or command line the module was generated from, for messages. */
  source: string
  /** The server connect() reaches unless told otherwise. */
  server: ServerSpec
  /** Set when generated from a profile: `server` keeps the profile's `${VAR}` and `${secret:KEY}`. */
  profile?: string | undefined
  /** The command that writes the module again. */
  regenerate: string
  /** The policy connect() applies unless given one (`mcp-kit generate --policy`); default `error`. */
  schemaValidation?: SchemaPolicy | undefined
}

export interface GeneratedConnectOptions extends ConnectOptions {
  /** Reach this server instead of the one the module was generated from. */
  server?: ServerSpec | undefined
  /** Values for a profile's `${NAME}` (before the environment) and `${secret:KEY}` (as `secret:KEY`). */
  variables?: Record<string, string> | undefined
  /**
   * What a change to the module's tools on the server does: `error` refuses any, `breaking`
   * refuses breaking ones and warns of the rest, `warn` warns, `ignore` does not look. Default:
   * the module's own (`mcp-kit generate --policy`), else `error`.
   */
  schemaValidation?: SchemaPolicy | undefined
  /** Where `warn` says it (default: standard error). */
  onWarning?: ((message: string) => void) | undefined
}

/** The content of a tool's result: what a method of a tool without an outputSchema resolves to. */
export type ToolContent = CallToolResult['content']

/**
 * Connects to a generated module's server and compares the live tools with the module's
 * fingerprint: a change the policy refuses fails with ClientError `schema_changed`, one it lets
 * through is reported through `onWarning`, and with `ignore` nothing is looked for.
 */
export async function openGenerated(
  generated: GeneratedServer,
  options: GeneratedConnectOptions = {},
): Promise<Session> {
  const { server, variables, schemaValidation, onWarning, ...connectOptions } = options
  const policy = schemaValidation ?? generated.schemaValidation ?? 'error'
  let target = server ?? generated.server
  if (server === undefined) {
    const environment = Object.entries(connectOptions.parentEnv ?? process.env).filter(
      ([name]) => !name.startsWith('secret:'),
    )
    target = expandServer(
      generated.server,
      { ...Object.fromEntries(environment), ...variables },
      generated.profile === undefined ? 'the module' : `profile @${generated.profile}`,
    )
  }
  const session = await connect(target, connectOptions)
  if (policy === 'ignore') return session
  try {
    const drift = await compareGenerated(generated, await session.listTools())
    const verdict = driftVerdict(generated, drift, policy)
    if (verdict.refused) {
      throw new ClientError('schema_changed', verdict.message, {
        details: { ...drift, regenerate: generated.regenerate },
      })
    }
    if (verdict.message !== '')
      (onWarning ?? ((text: string) => process.stderr.write(`warning: ${text}\n`)))(verdict.message)
  } catch (error) {
    await session.close()
    throw error
  }
  return session
}

async function callOrThrow(
  session: Session,
  name: string,
  args: unknown,
  options: CallOptions | undefined,
): Promise<CallToolResult> {
  // A server's schema may type the arguments as something else; the protocol sends an object.
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
    throw new ClientError('invalid_arguments', `tools/call '${name}': the arguments must be an object`, {
      details: { tool: name },
    })
  }
  const result = await session.callTool(name, { ...args }, options)
  if (result.isError) {
    throw new ClientError('tool_error', toolErrorText(result), {
      details: { tool: name, content: result.content },
    })
  }
  return result
}

/** Calls a tool; resolves to its content, rejects with ClientError `tool_error` when it failed. */
export async function callForContent(
  session: Session,
  name: string,
  args?: unknown,
  options?: CallOptions,
): Promise<ToolContent> {
  return (await callOrThrow(session, name, args, options)).content
}

/** Calls a tool that has an outputSchema; resolves to its structuredContent. */
export async function callForStructured<Result>(
  session: Session,
  name: string,
  args?: unknown,
  options?: CallOptions,
): Promise<Result> {
  const result = await callOrThrow(session, name, args, options)
  if (result.structuredContent === undefined) {
    throw new ClientError('protocol_error', `tools/call '${name}': the tool returned no structuredContent`, {
      details: { tool: name },
    })
  }
  return result.structuredContent as Result
}
