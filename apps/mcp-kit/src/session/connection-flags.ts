// Flags every server-facing command shares (timeouts, headers, environment, protocol revision,
// answers to server questions and who answers sampling, OAuth login, traces, verbosity).
// Only data here: command builders import it when `--help` runs, so it must stay light.

import type { Options } from 'yargs'
import { registryChoiceFlag, registryFlags } from '../registry/registry-flags.js'
import { type SamplingArguments, samplingFlags } from '../sampling/sampling-flags.js'
import type { InputArguments } from './input-handler.js'

export const connectionFlags = {
  timeout: {
    type: 'number',
    describe: 'Seconds to wait for each call (reset by progress)',
    default: 60,
    group: 'Connection:',
  },
  'connect-timeout': {
    type: 'number',
    describe: 'Seconds to wait for launch + initialize',
    default: 30,
    group: 'Connection:',
  },
  'max-time': { type: 'number', describe: 'Seconds for the whole command', group: 'Connection:' },
  header: {
    type: 'string',
    array: true,
    describe: "HTTP header 'Name: value' (repeatable)",
    group: 'Connection:',
  },
  env: {
    type: 'string',
    array: true,
    describe: 'NAME=value for a stdio server (repeatable)',
    group: 'Connection:',
  },
  'pass-env': {
    type: 'string',
    array: true,
    describe: 'Pass NAME or GLOB* from this environment to a stdio server',
    group: 'Connection:',
  },
  'keep-alive': {
    type: 'string',
    describe:
      'Keep the server running in the background this long after the command (e.g. 60s, 10m; 0: no), for later commands with the same launch to reuse (cat, head, tail, put, inspect, watch, task)',
    group: 'Connection:',
  },
  'max-message-size': {
    type: 'string',
    describe: 'Largest message accepted from a server, stdio or HTTP (e.g. 16MiB)',
    default: '16MiB',
    group: 'Connection:',
  },
  protocol: {
    type: 'string',
    describe: 'MCP revision: auto (2026-07-28 when the server speaks it, else 2025-11-25), or one to pin',
    default: 'auto',
    group: 'Connection:',
  },
  input: {
    type: 'string',
    array: true,
    describe: 'Answer a server question field, or an input of a registry entry: name=value (repeatable)',
    group: 'Answers:',
  },
  'input-json': {
    type: 'string',
    describe: 'Answer a server question with a JSON object of fields',
    group: 'Answers:',
  },
  'input-timeout': {
    type: 'number',
    describe: 'Seconds to wait for the answer to one server question (default: --timeout; 0: no limit)',
    group: 'Answers:',
  },
  root: {
    type: 'string',
    array: true,
    describe: 'A root directory to share when the server asks (default: the working directory)',
    group: 'Answers:',
  },
  'client-id': {
    type: 'string',
    describe: "OAuth: a pre-registered client id (else the profile's, a metadata document, or registration)",
    group: 'Login (OAuth):',
  },
  'client-secret': {
    type: 'string',
    describe: 'OAuth: its secret (or MCP_KIT_CLIENT_SECRET; on the command line other users can see it)',
    group: 'Login (OAuth):',
  },
  'client-metadata-url': {
    type: 'string',
    describe: 'OAuth: an https:// Client ID Metadata Document to use as the client id',
    group: 'Login (OAuth):',
  },
  scope: { type: 'string', describe: 'OAuth: scopes to ask for, space-separated', group: 'Login (OAuth):' },
  browser: {
    type: 'boolean',
    default: true,
    describe: 'Open a browser to log in (--no-browser prints the URL)',
    group: 'Login (OAuth):',
  },
  trace: {
    type: 'string',
    describe: 'Append one NDJSON trace entry per call to this file',
    group: 'Output:',
  },
  'trace-messages': {
    type: 'boolean',
    describe:
      'Also write every JSON-RPC message to the trace (kind "message" entries; mcp-kit ui opens them)',
    group: 'Output:',
  },
  'trace-redact-args': {
    type: 'boolean',
    describe: 'Write argument names but not values to the trace',
    group: 'Output:',
  },
  verbose: {
    type: 'boolean',
    alias: 'v',
    describe: "Show the server's stderr and diagnostics",
    group: 'Output:',
  },
  quiet: { type: 'boolean', alias: 'q', describe: 'Show nothing but data and errors', group: 'Output:' },
  ...samplingFlags,
  ...registryFlags,
  ...registryChoiceFlag,
} as const satisfies Record<string, Options>

export interface ConnectionArguments extends InputArguments, SamplingArguments {
  registry?: string
  'registry-header'?: string[]
  'registry-choice'?: string
  timeout: number
  protocol?: string
  'client-id'?: string
  'client-secret'?: string
  'client-metadata-url'?: string
  scope?: string
  browser?: boolean
  'connect-timeout': number
  'max-time'?: number
  'input-timeout'?: number
  header?: string[]
  env?: string[]
  'pass-env'?: string[]
  'max-message-size': string
  'keep-alive'?: string
  trace?: string
  'trace-messages'?: boolean
  'trace-redact-args'?: boolean
  verbose?: boolean
  quiet?: boolean
}
