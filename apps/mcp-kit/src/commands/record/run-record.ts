// `mcp-kit record --out FILE -- <command…>`: the command runs (no shell, the terminal its own)
// with $MCP_KIT_RECORD naming a spool file; every mcp-kit it starts appends its calls there
// (record/session-recorder.ts). When it ends, the spool becomes the collection. The
// exit code is the command's: recording hides no failure. Ctrl-C is the command's to handle.

import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RecordedCall } from '@mcp-kit/collections'
import { CliError } from '../../base/errors.js'
import { exitCodes } from '../../base/exit-codes.js'
import type { Io } from '../../base/io.js'
import { writeDiagnostic } from '../../output/diagnostics.js'
import { spoolVariable } from '../../record/record-flag.js'
import { writeRecording } from '../../record/write-recording.js'

export interface RecordArguments {
  out: string
  append?: boolean
  quiet?: boolean
  serverCommand?: string[]
}

function readSpool(path: string): RecordedCall[] {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch {
    return []
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as RecordedCall]
      } catch {
        return [] // a line cut short by a command that was killed mid-write
      }
    })
}

export async function runRecord(args: RecordArguments, io: Io): Promise<number> {
  const [program, ...programArguments] = args.serverCommand ?? []
  if (program === undefined || program === '')
    throw new CliError(
      'usage',
      'give the command to record after --, e.g. mcp-kit record --out session.yaml -- mcp-kit shell @demo',
    )
  if (!/\.(ya?ml|json)$/i.test(args.out))
    throw new CliError(
      'usage',
      `--out ${JSON.stringify(args.out)}: a collection is a .yaml, .yml or .json file`,
    )
  const directory = mkdtempSync(join(tmpdir(), 'mcp-kit-record-'))
  const spool = join(directory, 'calls.ndjson')
  // Ctrl-C on a terminal reaches the whole foreground group: it is the command's (a shell's
  // Ctrl-C cancels a call there), never a reason to stop recording. SIGTERM still ends both.
  const interruptHandlers = process.listeners('SIGINT')
  const ignore = () => {}
  if (io.stdin === process.stdin) {
    process.removeAllListeners('SIGINT')
    process.on('SIGINT', ignore)
  }
  try {
    const code = await new Promise<number>((resolve, reject) => {
      const child = spawn(program, programArguments, {
        cwd: io.cwd,
        env: { ...io.env, [spoolVariable]: spool },
        stdio: [
          io.stdin === process.stdin ? 'inherit' : 'pipe',
          io.stdout === process.stdout ? 'inherit' : 'pipe',
          io.stderr === process.stderr ? 'inherit' : 'pipe',
        ],
      })
      child.stdout?.pipe(io.stdout, { end: false })
      child.stderr?.pipe(io.stderr, { end: false })
      if (child.stdin) io.stdin.pipe(child.stdin)
      const forward = () => child.kill('SIGTERM')
      io.signal.addEventListener('abort', forward, { once: true })
      child.once('error', (error) => {
        io.signal.removeEventListener('abort', forward)
        reject(
          new CliError('launch_failed', `cannot run ${JSON.stringify(program)}: ${error.message}`, {
            cause: error,
          }),
        )
      })
      child.once('close', (exit, signal) => {
        io.signal.removeEventListener('abort', forward)
        resolve(exit ?? (signal === 'SIGINT' ? exitCodes.interrupted : 128 + 15))
      })
    })
    const calls = readSpool(spool)
    if (calls.length === 0) {
      writeDiagnostic(
        io,
        `nothing was recorded: the command made no call through mcp-kit; ${args.out} is left as it was`,
      )
      return code === exitCodes.ok ? exitCodes.failed : code
    }
    const written = await writeRecording(args.out, calls, io, { append: args.append === true })
    if (!args.quiet) writeDiagnostic(io, written.summary)
    return code
  } finally {
    if (io.stdin === process.stdin) {
      process.off('SIGINT', ignore)
      for (const handler of interruptHandlers) process.on('SIGINT', handler)
    }
    rmSync(directory, { recursive: true, force: true })
  }
}
