// `serve`'s observability flags as gateway options: `--audit FILE|-` (with `--audit-arguments`,
// `--audit-results`, `--audit-max-size`, `--audit-keep`), `--metrics` (Prometheus at /metrics) and
// `--otlp URL` or the standard OTEL_EXPORTER_OTLP_* variables (traces and metrics over OTLP/HTTP).

import { resolve } from 'node:path'
import type { GatewayOptions } from '@mcp-kit/gateway'
import { parseByteSize } from '../../../base/byte-size.js'
import { CliError } from '../../../base/errors.js'
import type { Io } from '../../../base/io.js'
import type { ServeArguments } from '../serve-options.js'

function httpUrl(value: string, flag: string): string {
  try {
    const url = new URL(value)
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.href
  } catch {
    // said below
  }
  throw new CliError('usage', `${flag} must be an http(s) URL (got ${JSON.stringify(value)})`)
}

/** True when the environment asks for OTLP export (and does not switch the SDK off). */
function otlpFromEnvironment(env: Io['env']): boolean {
  if (env.OTEL_SDK_DISABLED === 'true') return false
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)
}

export function observerOptions(
  args: ServeArguments,
  io: Io,
  sessions: () => number,
): Pick<GatewayOptions, 'audit' | 'metrics' | 'tracing'> {
  const options: Pick<GatewayOptions, 'audit' | 'metrics' | 'tracing'> = {}
  if (args.audit === undefined) {
    const stray = (['auditArguments', 'auditResults', 'auditMaxSize', 'auditKeep'] as const).find(
      (key) => args[key] !== undefined,
    )
    if (stray !== undefined)
      throw new CliError(
        'usage',
        `--${stray.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} needs --audit FILE`,
      )
  } else {
    if (args.audit === '-' && args.port === undefined)
      throw new CliError(
        'usage',
        '--audit -: stdout carries the protocol over stdio; give a file, or serve with --port',
      )
    let maxBytes: number | undefined
    if (args.auditMaxSize !== undefined) {
      maxBytes = parseByteSize(args.auditMaxSize)
      if (maxBytes === undefined)
        throw new CliError(
          'usage',
          `--audit-max-size: cannot read ${JSON.stringify(args.auditMaxSize)}; say e.g. 100MiB`,
        )
    }
    if (args.auditKeep !== undefined && (!Number.isInteger(args.auditKeep) || args.auditKeep < 0))
      throw new CliError('usage', '--audit-keep must be a whole number ≥ 0')
    options.audit = {
      path: args.audit === '-' ? '-' : resolve(io.cwd, args.audit),
      stdout: io.stdout,
      maxBytes,
      keep: args.auditKeep,
      arguments: args.auditArguments === true,
      results: args.auditResults === true,
      onError: (error) => io.stderr.write(`mcp-kit: warning: cannot write the audit log: ${error.message}\n`),
    }
  }
  if (args.metrics === true) options.metrics = { sessions }
  if (args.otlp !== undefined || otlpFromEnvironment(io.env)) {
    options.tracing = {
      endpoint: args.otlp === undefined ? undefined : httpUrl(args.otlp, '--otlp'),
      env: io.env,
    }
  }
  return options
}
