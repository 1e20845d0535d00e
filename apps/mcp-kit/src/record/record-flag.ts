// `--record FILE` on the commands that call a server (cat, head, tail, put, shell), and where a
// recording goes: that file, or the spool of an `mcp-kit record` this command runs under
// ($MCP_KIT_RECORD). Only data here: command builders import it when `--help` runs.

import type { Options } from 'yargs'

export const recordFlag = {
  record: {
    type: 'string',
    describe:
      "Save what is sent and received as a collection (new, or steps added to an existing one) that 'mcp-kit test' replays",
    group: 'Output:',
  },
} as const satisfies Record<string, Options>

/** The environment variable `mcp-kit record` sets for the commands it runs. */
export const spoolVariable = 'MCP_KIT_RECORD'

export type RecordingTarget = { kind: 'file'; path: string } | { kind: 'spool'; path: string }

/** Where this command's calls are recorded, if anywhere. */
export function recordingTarget(
  args: { record?: unknown },
  env: Readonly<Record<string, string | undefined>>,
): RecordingTarget | undefined {
  if (typeof args.record === 'string' && args.record !== '') return { kind: 'file', path: args.record }
  const spool = env[spoolVariable]
  return spool ? { kind: 'spool', path: spool } : undefined
}
