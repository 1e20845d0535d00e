// What makes two commands' servers "the same" for a warm session: everything that shapes the
// server or what the client tells it — the launch (command, arguments, working directory and the
// exact environment the server would get) or the endpoint (URL, headers, the OAuth identity and
// where its tokens live), the protocol choice, the capabilities declared (a server may offer
// other tools to a client that samples), the message size limit and the tools filter. Any
// difference means another server, never a stale one. Only a hash is kept: env and header values
// are secrets.

import { createHash } from 'node:crypto'
import { type ConnectOptions, capabilitiesOf, defaultCredentialsPath, type ServerSpec } from '@mcp-kit/client'
import { buildEnvironment } from '@mcp-kit/client/internal'

type Environment = Readonly<Record<string, string | undefined>>

function sorted(record: Readonly<Record<string, string>> | undefined): [string, string][] {
  return Object.entries(record ?? {}).sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
}

function lowerCaseNames(record: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([name, value]) => [name.toLowerCase(), value]))
}

/** The launch identity of a server as a command would start or reach it, hashed (hex SHA-256). */
export function launchKey(
  server: ServerSpec,
  options: ConnectOptions,
  context: { cwd: string; env: Environment; toolFilter: readonly string[] | null },
): string {
  const common = {
    protocol: options.protocol ?? 'auto',
    capabilities: capabilitiesOf(options.input),
    maxMessageBytes: options.maxMessageBytes ?? null,
    toolFilter: context.toolFilter,
  }
  let identity: unknown
  if (server.transport === 'stdio') {
    const { env } = buildEnvironment({
      parent: options.parentEnv ?? context.env,
      passEnv: options.passEnv,
      set: { ...server.env, ...options.env },
    })
    identity = {
      ...common,
      transport: 'stdio',
      command: server.command,
      args: server.args,
      cwd: server.cwd ?? options.cwd ?? context.cwd,
      env: sorted(env),
    }
  } else {
    const headers = lowerCaseNames({ ...server.headers, ...options.headers })
    if (options.bearerToken !== undefined) headers.authorization = `Bearer ${options.bearerToken}`
    const oauth = options.oauth
    identity = {
      ...common,
      transport: 'http',
      url: server.url,
      headers: sorted(headers),
      oauth:
        oauth === undefined
          ? null
          : {
              credentials: defaultCredentialsPath(context.env),
              clientId: oauth.clientId ?? null,
              clientSecret: oauth.clientSecret ?? null,
              clientMetadataUrl: oauth.clientMetadataUrl ?? null,
              scope: oauth.scope ?? null,
            },
    }
  }
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex')
}
