// `mcp-kit watch`: one NDJSON record per change notification — `{"ts", "method", "params"}` —
// from a 2026-07-28 `subscriptions/listen` stream or a 2025-11-25 session's own notifications
// (plus `resources/subscribe`). Ends on Ctrl-C (exit 130) or when the server goes away (exit 3).

import { CliError } from '../../base/errors.js'
import { exitCodes } from '../../base/exit-codes.js'
import { type Io, write } from '../../base/io.js'
import { diagnostics } from '../../output/diagnostics.js'
import type { ConnectionArguments } from '../../session/connection-flags.js'
import { openSession } from '../../session/open-session.js'
import { resolveTarget, type TargetArguments } from '../../session/reference.js'

export interface WatchArguments extends ConnectionArguments, Omit<TargetArguments, 'resource'> {
  resource?: string[]
  lists: boolean
}

export async function runWatch(args: WatchArguments, io: Io): Promise<number> {
  const { resolved, text } = await resolveTarget(
    { reference: args.reference, serverCommand: args.serverCommand },
    io,
  )
  const operation = resolved.operation
  const resources = [...(args.resource ?? [])]
  if (operation.kind === 'readResource') resources.push(operation.uri)
  else if (operation.kind !== 'inspect') {
    throw new CliError(
      'usage',
      `watch takes a server (and optionally ?resource=uri), not a ${operation.kind} operation`,
    )
  }
  if (!args.lists && resources.length === 0) {
    throw new CliError('usage', 'nothing to watch: --no-lists needs --resource <uri>')
  }
  const say = diagnostics(io, args)
  // A watch has no end of its own: only the total limit (--max-time) applies, not --timeout.
  const session = await openSession(resolved, args, io)
  try {
    say.verbose(`watching ${text} (MCP ${session.protocolVersion})`)
    let writing = Promise.resolve()
    await session.watch(
      (notification) => {
        const record = {
          ts: new Date().toISOString(),
          method: notification.method,
          params: notification.params ?? {},
        }
        writing = writing.then(() => write(io.stdout, `${JSON.stringify(record)}\n`))
      },
      { lists: args.lists, resources, signal: io.signal },
    )
    await writing
    if (io.signal.aborted) return exitCodes.interrupted
    throw new CliError('connect_failed', `${text}: the server closed the connection`)
  } finally {
    await session.close()
  }
}
