// What connect() takes besides the server: limits, environment and headers, hooks (traces, stderr,
// diagnostics, logs), the protocol choice and its era cache, the server's questions' answers, OAuth, I/O.

import type { spawn as nodeSpawn } from 'node:child_process'
import type { LoggingMessageNotification } from '@modelcontextprotocol/client'
import type { OAuthHookOptions } from '../auth/oauth.js'
import type { MessageObserver } from '../protocol/connection.js'
import type { InputHandler } from '../protocol/input.js'
import type { ProtocolChoice } from '../protocol/negotiate.js'
import type { TraceEntry } from '../session/trace.js'
import type { ToolFilter } from '../session/types.js'
import type { EraCache } from './era-cache.js'

export interface ConnectOptions {
  /** How this client introduces itself (default mcp-kit). */
  clientInfo?: { name: string; version: string } | undefined
  /** Launch + initialize limit in ms (default 30 000: npx and uvx may download first). */
  connectTimeoutMs?: number | undefined
  /** Per-call limit in ms, reset by progress (default 60 000). */
  callTimeoutMs?: number | undefined
  /** Limit for the whole session in ms, connect included (default none). */
  totalTimeoutMs?: number | undefined
  signal?: AbortSignal | undefined
  toolFilter?: ToolFilter | undefined
  /** Extra environment for stdio servers; wins over the spec's `env`. */
  env?: Record<string, string> | undefined
  /** The environment stdio servers inherit from (default process.env); only a minimal set is passed. */
  parentEnv?: Readonly<Record<string, string | undefined>> | undefined
  /** Parent variables (names or `*` globs) to pass to stdio servers. */
  passEnv?: readonly string[] | undefined
  /** Extra HTTP headers; win over the spec's `headers`. */
  headers?: Record<string, string> | undefined
  /** Sent as `Authorization: Bearer …`. */
  bearerToken?: string | undefined
  cwd?: string | undefined
  /**
   * The project `npx` looks for packages in (`--prefix`), whatever the working directory: by
   * default a directory of this package with nothing installed, so a stdio server started with
   * `npx` comes from npm's cache, as from a desktop client, and not from a project around `cwd`
   * (whose pnpm or linked layout can make npx fail with "not found"). The server still runs in
   * `cwd`. Not added when npx's own options name a prefix or a workspace; `false`: never added.
   */
  npxPrefix?: string | false | undefined
  /** Largest message accepted from a server, in bytes (default 16 MiB): a stdio line, a JSON body, an SSE event. */
  maxMessageBytes?: number | undefined
  /** How long each stdio shutdown step waits (default 1000 ms). */
  shutdownGraceMs?: number | undefined
  /**
   * Have a watchdog process end the stdio servers' trees should this process die without closing
   * its sessions (SIGKILL, out of memory). Default true; POSIX only.
   */
  watchdog?: boolean | undefined
  onTrace?: ((entry: TraceEntry) => void) | undefined
  redactTraceArguments?: boolean | undefined
  onStderr?: ((line: string) => void) | undefined
  onDiagnostic?: ((message: string) => void) | undefined
  onLog?: ((message: LoggingMessageNotification['params']) => void) | undefined
  /**
   * Sees every JSON-RPC message of the session, the handshake included, as it is sent or received
   * (a timeline, a message trace). Called synchronously; it must not change the message.
   */
  onMessage?: MessageObserver | undefined
  /** `auto` (default: 2026-07-28 if the server speaks it, else 2025-11-25), or one revision only. */
  protocol?: ProtocolChoice | undefined
  /**
   * Experimental capabilities to declare (`capabilities.experimental`), e.g. an mcp-kit gateway's
   * `io.mcp-kit/upstream-hops`: asked for, it reports each call's upstream hop in the result's `_meta`.
   */
  experimentalCapabilities?: Record<string, Record<string, unknown>> | undefined
  /** Answers the server's questions (elicitation, sampling, roots); decides what the client declares. */
  input?: InputHandler | undefined
  /**
   * How long one question may wait for `input` to answer, in ms (default: `callTimeoutMs`; 0: no
   * limit). Past it a 2025-11-25 question is answered with a JSON-RPC error and the calls waiting
   * on it fail with ClientError `timeout` "input question timed out after N s"; a 2026-07-28
   * call fails the same way.
   */
  inputTimeoutMs?: number | undefined
  /**
   * Where the era each server speaks is remembered, so that a 2025-11-25 server is not probed with
   * `server/discover` on every connect. Default: in memory, for this process. `fileEraCache()` keeps
   * it between runs in a file under the user's cache directory; `noEraCache` remembers nothing.
   */
  eraCache?: EraCache | undefined
  /** How long a stdio server's `server/discover` probe waits for an answer (default 10 s; at most half the connect limit, which also bounds an HTTP probe). */
  probeTimeoutMs?: number | undefined
  /**
   * OAuth for HTTP servers that ask for it (401): where credentials are kept, a pre-registered
   * client or a Client ID Metadata Document, and how to log in (an Authorizer; without one a
   * server that needs a login fails with `auth_required`). A static Authorization header wins.
   */
  oauth?: Omit<OAuthHookOptions, 'serverUrl' | 'fetch'> | undefined
  /** Injected for tests. */
  spawn?: typeof nodeSpawn | undefined
  fetch?: ((url: string | URL, init?: RequestInit) => Promise<Response>) | undefined
}
