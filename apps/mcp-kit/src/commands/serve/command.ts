// `mcp-kit serve [targets..]` — serve a ToolRegistry module (or the bundled demo) over stdio or
// Streamable HTTP, and/or other MCP servers behind it as a gateway. Only flags live here; the
// server code loads when the command runs.

import type { Argv } from 'yargs'
import type { CommandContext } from '../../base/command-context.js'
import { registryFlags } from '../../registry/registry-flags.js'
import type { ServeArguments } from './run-serve.js'

export const command = 'serve [targets..]'
export const describe =
  'Serve a ToolRegistry module (default: the bundled demo) and/or other MCP servers (a gateway) over stdio or Streamable HTTP'

export function builder(yargs: Argv) {
  return yargs
    .positional('targets', {
      type: 'string',
      array: true,
      describe:
        'An ES module whose default export is a registry, and/or servers to offer behind this one: @profile, mcp+…:// references, name=<reference>',
    })
    .option('config', {
      type: 'string',
      describe: "Serve the servers of a desktop client's config file (mcpServers, or VS Code's servers)",
    })
    .option('openapi', {
      type: 'string',
      array: true,
      describe:
        "A REST API's operations as tools, from its OpenAPI 3 document (a URL or a file, JSON or YAML); name=SPEC serves them as name__operationId beside other servers",
    })
    .option('openapi-base', {
      type: 'string',
      describe: "Send the API's requests here (default: the document's server URL)",
    })
    .option('openapi-header', {
      type: 'string',
      array: true,
      describe:
        "'Name: value': send this header with every request to the API (it wins over credentials; a header parameter the caller passes wins over it); ${NAME} and ${secret:KEY} in the value come from the environment and the secret store. A named API's security schemes read $MCP_KIT_OPENAPI_<NAME>__<SCHEME>",
    })
    .option('openapi-force-header', {
      type: 'string',
      array: true,
      describe:
        "'Name: value': as --openapi-header, but nothing overrides it, not even the caller's header parameters",
    })
    .option('openapi-timeout', {
      type: 'number',
      describe: 'Seconds one request to the API may take (default 30)',
    })
    .option('openapi-max-response', {
      type: 'string',
      describe: 'The largest answer read from the API, e.g. 4MiB (default 10MiB)',
    })
    .option('openapi-strict-responses', {
      type: 'boolean',
      describe:
        "Refuse a 2xx answer that does not match the API's document (default: return it, with warnings in the result's _meta; always on when --openapi-output-schemas declares schemas)",
    })
    .option('openapi-allow-remote-refs', {
      type: 'boolean',
      describe:
        "Follow the document's $refs to other hosts (default: only to files beside it, or URLs under its own URL's folder)",
    })
    .option('openapi-files', {
      type: 'string',
      describe:
        "File arguments may name files in this directory as '@name' (default: files are given in base64 only)",
    })
    .option('openapi-include', {
      type: 'string',
      array: true,
      describe: 'Offer only these operations: operationIds, tag:NAME or "METHOD /path", with * and ? globs',
    })
    .option('openapi-exclude', {
      type: 'string',
      array: true,
      describe: 'Leave out these operations (written as for --openapi-include)',
    })
    .option('openapi-include-tag', {
      type: 'string',
      array: true,
      describe: 'Offer only the operations with this tag (as --openapi-include tag:NAME)',
    })
    .option('openapi-exclude-tag', {
      type: 'string',
      array: true,
      describe: 'Leave out the operations with this tag',
    })
    .option('openapi-include-path', {
      type: 'string',
      array: true,
      describe:
        'Offer only the operations at this path or under it, e.g. /repos (as --openapi-include path:/repos)',
    })
    .option('openapi-exclude-path', {
      type: 'string',
      array: true,
      describe: 'Leave out the operations at this path or under it',
    })
    .option('openapi-output-schemas', {
      type: 'string',
      choices: ['full', 'compact', 'none'],
      describe:
        'The output schemas tools declare: none (default: answers off the document still come, with warnings), compact (no descriptions or examples below the top level) or full; a declared schema makes answers strict',
    })
    .options(registryFlags)
    .option('eager', { type: 'boolean', describe: 'Start every upstream server at once, not on first use' })
    .option('idle-stop', {
      type: 'number',
      describe: 'Stop an upstream server after this many seconds without calls (it restarts on use)',
    })
    .option('verbose', {
      alias: 'v',
      type: 'boolean',
      describe: 'Report upstream starts, lists and log messages on stderr',
    })
    .option('stdio', { type: 'boolean', describe: 'Serve over stdin/stdout (the default without --port)' })
    .option('port', {
      type: 'number',
      describe: 'Serve Streamable HTTP at http://HOST:PORT/mcp (0: any free port)',
    })
    .option('host', { type: 'string', describe: 'Address to bind (default 127.0.0.1)' })
    .option('token', {
      type: 'string',
      describe:
        'Require Authorization: Bearer <token>. A token on the command line is visible to other ' +
        'local users (ps): prefer --token-file or $MCP_KIT_TOKEN',
    })
    .option('token-file', {
      type: 'string',
      describe: 'Read the bearer token from this file (one trailing newline is ignored)',
    })
    .option('auth-issuer', {
      type: 'string',
      describe:
        'Require OAuth access tokens (JWT) from this authorization server; tools with scopes need them',
    })
    .option('auth-audience', {
      type: 'string',
      array: true,
      describe: "Accepted token audiences (default: the endpoint's public URL)",
    })
    .option('auth-scope', {
      type: 'string',
      array: true,
      describe: 'A scope every request needs (besides the scopes of each tool)',
    })
    .option('public-url', {
      type: 'string',
      describe: 'The endpoint as clients reach it, e.g. behind a proxy (the OAuth resource)',
    })
    .option('store', {
      type: 'string',
      describe:
        'Share state with other instances of this server (2025 sessions, tasks, the requestState key, change notifications), so any instance serves any client: redis://[user:password@]host:port, rediss://… for TLS, or a Redis Cluster by one node, redis-cluster://[user:password@]host:port[?wait=N&wait-timeout=MS] (rediss-cluster://… for TLS) (or $MCP_KIT_STORE); default: in memory',
    })
    .option('store-ca', {
      type: 'string',
      describe:
        "Trust this PEM file's CA certificates (instead of Node's) for a rediss:// or rediss-cluster:// store's certificate (or $MCP_KIT_STORE_CA)",
    })
    .option('request-state-key-file', {
      type: 'string',
      describe:
        'Sign 2026 requestState with the key in this file (32+ bytes; or $MCP_KIT_REQUEST_STATE_KEY), the same on every instance, instead of a key kept in the store',
    })
    .option('store-prefix', {
      type: 'string',
      describe:
        'Put before every key and channel in the store, so one Redis serves several deployments (default mcp-kit:)',
    })
    .option('task-keep', {
      type: 'number',
      describe: 'Seconds a finished task and its result stay readable (tools with taskSupport; default 3600)',
    })
    .option('task-after', {
      type: 'number',
      describe:
        'Calls still running after this many seconds become tasks, also of tools that do not declare taskSupport (clients with the tasks extension)',
    })
    .option('task-lease', {
      type: 'number',
      describe:
        'Seconds an instance vouches for a task it runs between renewals; with --store, another instance fails the task once its owner stops renewing for that long (default 30, at least 1)',
    })
    .option('task-max', {
      type: 'number',
      describe:
        'Tasks running in this instance at once (default 1000; a quarter of it per signed-in user); past it, calls are answered in the request, or refused where a tool requires tasks',
    })
    .option('stateless', { type: 'boolean', describe: 'No sessions: each POST is served on its own' })
    .option('allow-origin', {
      type: 'string',
      array: true,
      describe: "Also accept browser requests from this Origin ('*': any)",
    })
    .option('allow-host', {
      type: 'string',
      array: true,
      describe: "Also accept this Host header, e.g. when binding 0.0.0.0 ('*': any)",
    })
    .option('max-sessions', { type: 'number', describe: 'Live sessions allowed at once (default 1000)' })
    .option('max-sessions-per-client', {
      type: 'number',
      describe: 'Live sessions one client may hold (default a quarter of --max-sessions)',
    })
    .option('session-idle', {
      type: 'number',
      describe: 'Close sessions idle this many seconds (default 600)',
    })
    .option('session-lifetime', {
      type: 'number',
      describe: 'Close sessions this many seconds after they start (default 86400; 0: never)',
    })
    .option('max-connections', {
      type: 'number',
      describe: 'Open connections allowed at once (default: below the open-file limit; 0: no cap)',
    })
    .option('headers-timeout', {
      type: 'number',
      describe: "Seconds a request's headers may take to arrive (default 10)",
    })
    .option('body-timeout', {
      type: 'number',
      describe: "Seconds a request's body may take to arrive, then 408 (default 10; 0: no limit)",
    })
    .option('body-limit', {
      type: 'string',
      describe: 'Largest request body, e.g. 4MiB, 512KiB (default 4MiB)',
    })
    .option('shutdown-grace', {
      type: 'number',
      describe: 'Seconds in-flight calls get to finish on SIGINT/SIGTERM (default 10)',
    })
    .option('trace', { type: 'string', describe: 'Append one NDJSON trace entry per call to this file' })
    .option('trace-redact-args', {
      type: 'boolean',
      describe: 'Write argument names but not values to the trace',
    })
    .option('policy', {
      type: 'string',
      describe:
        "The gateway's controls in a file of their own (JSON or JSONC): named tokens, policy rules, rate limits, admin; else the 'gateway' object of --config",
    })
    .option('watch', {
      type: 'boolean',
      describe:
        'Reload --config and --policy when they change (SIGHUP always reloads); a bad file is refused and the running config kept',
    })
    .option('audit', {
      type: 'string',
      describe: "Write one NDJSON audit record per gateway call to this file ('-': stdout), rotated by size",
    })
    .option('audit-arguments', {
      type: 'boolean',
      describe: 'Put the arguments in audit records (secrets redacted)',
    })
    .option('audit-results', {
      type: 'boolean',
      describe: 'Put the results in audit records (secrets redacted)',
    })
    .option('audit-max-size', {
      type: 'string',
      describe: 'Rotate the audit file past this size, e.g. 100MiB (default 100MiB; 0: never)',
    })
    .option('audit-keep', { type: 'number', describe: 'Rotated audit files kept (default 5)' })
    .option('metrics', {
      type: 'boolean',
      describe:
        'Serve Prometheus metrics at /metrics (per upstream and tool: calls, errors, latency, in flight, up/down, refusals)',
    })
    .option('otlp', {
      type: 'string',
      describe:
        "Send OpenTelemetry traces and metrics over OTLP/HTTP to this URL (or set OTEL_EXPORTER_OTLP_ENDPOINT); the caller's traceparent is joined and passed on to upstreams",
    })
    .conflicts('stdio', 'port')
    .conflicts('token', 'auth-issuer')
    .conflicts('token', 'token-file')
    .conflicts('token-file', 'auth-issuer')
    .example('$0 serve --stdio', 'the demo registry over stdio')
    .example('$0 serve ./tools.js --port 3000', 'your registry at http://127.0.0.1:3000/mcp')
    .example(
      '$0 serve @github fs=mcp+npx://@modelcontextprotocol/server-filesystem?arg=. --port 3000',
      'a gateway: both servers behind one endpoint, tools named github__… and fs__…',
    )
    .example(
      '$0 serve ./tools.js --port 3000 --store redis://127.0.0.1:6379',
      'one of several instances behind a load balancer, sharing state on Redis',
    )
    .example(
      '$0 serve --openapi https://api.example.com/openapi.json --port 3000',
      "a REST API's operations as tools, one per operationId",
    )
    .example(
      '$0 serve @github --openapi pets=./petstore.yaml --openapi-base https://pets.example.com --port 3000',
      'beside other servers: tools github__… and pets__…',
    )
    .example(
      '$0 serve --config gateway.jsonc --port 3000 --watch --metrics --audit audit.ndjson',
      'a gateway for a team: its controls in the config, reloaded on change, metrics and audit on',
    )
    .example(
      '$0 serve --stdio --config ~/.config/Claude/claude_desktop_config.json',
      "every server of a desktop client's config as one stdio server",
    )
    .example(
      '$0 serve ./tools.js --port 3000 --host 0.0.0.0 --allow-host my.host --token-file ~/.mcp-token',
      'reachable from other machines, with a token',
    )
    .example(
      '$0 serve ./tools.js --port 3000 --auth-issuer https://login.example.com --public-url https://tools.example.com/mcp',
      'OAuth: tokens from that authorization server, for this server',
    )
}

export async function handler(argv: ServeArguments & CommandContext): Promise<void> {
  const { runServe } = await import('./run-serve.js')
  argv.result.exitCode = await runServe(argv, argv.io)
}
