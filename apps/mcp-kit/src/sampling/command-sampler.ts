// Sampling answered by a program of the user's choosing, once per request: it runs without a
// shell, gets the request on stdin as one JSON object ({"method": "sampling/createMessage",
// "params": {…}}) and prints the answer on stdout (sampling-answer.ts: a JSON result or plain
// text). A program that fails, prints too much or outlives the question (--input-timeout, Ctrl-C)
// is ended with its process group; its failure is told with its last stderr lines.

import { spawn as nodeSpawn } from 'node:child_process'
import { basename } from 'node:path'
import type { InputContext, SamplingRequest, SamplingResult } from '@mcp-kit/client'
import { applyStopSequences, parseAnswer, samplingFailed } from './sampling-answer.js'

export interface CommandSamplerOptions {
  argv: readonly string[]
  cwd: string
  env: Readonly<Record<string, string | undefined>>
  /** The most the program may print on stdout (default 16 MiB). */
  maxOutputBytes?: number
  spawn?: typeof nodeSpawn
}

const stderrTailBytes = 4096
const graceMs = 1000

export function commandSampler(
  options: CommandSamplerOptions,
): (request: SamplingRequest, context: InputContext) => Promise<SamplingResult> {
  const [program = '', ...args] = options.argv
  const spawn = options.spawn ?? nodeSpawn
  const maxBytes = options.maxOutputBytes ?? 16 * 1024 * 1024
  // The model's name in the answer (unless it gives one): the command line, paths as file names.
  const model = options.argv
    .map((word) => basename(word))
    .join(' ')
    .slice(0, 80)
  return (request, context) =>
    new Promise<SamplingResult>((resolve, reject) => {
      if (context.signal.aborted) return reject(context.signal.reason)
      const posix = process.platform !== 'win32'
      const child = spawn(program, args, {
        cwd: options.cwd,
        env: options.env as NodeJS.ProcessEnv,
        stdio: ['pipe', 'pipe', 'pipe'],
        // Its own process group, so that ending it ends whatever it started.
        detached: posix,
        windowsHide: true,
      })
      const stdout: Buffer[] = []
      let stdoutBytes = 0
      let stderr = ''
      let failure: Error | undefined
      let killTimer: NodeJS.Timeout | undefined
      const end = (signal: NodeJS.Signals) => {
        try {
          if (posix && child.pid !== undefined) process.kill(-child.pid, signal)
          else child.kill(signal)
        } catch {
          // Already gone.
        }
      }
      const stop = (why: Error) => {
        failure ??= why
        end('SIGTERM')
        killTimer ??= setTimeout(() => end('SIGKILL'), graceMs)
        killTimer.unref()
      }
      const onAbort = () => stop(context.signal.reason)
      context.signal.addEventListener('abort', onAbort, { once: true })
      child.stdout?.on('data', (chunk: Buffer) => {
        stdoutBytes += chunk.length
        if (stdoutBytes > maxBytes)
          stop(samplingFailed(`the sampling command ${model} printed more than ${maxBytes} bytes`))
        else stdout.push(chunk)
      })
      child.stderr?.setEncoding('utf8').on('data', (text: string) => {
        stderr = (stderr + text).slice(-stderrTailBytes)
      })
      child.stdin?.on('error', () => {
        // A program that does not read its input may still answer.
      })
      child.stdin?.end(`${JSON.stringify({ method: 'sampling/createMessage', params: request })}\n`)
      child.on('error', (error: NodeJS.ErrnoException) => {
        failure ??= samplingFailed(
          error.code === 'ENOENT'
            ? `cannot run the sampling command: ${program} was not found`
            : `cannot run the sampling command ${program}: ${error.message}`,
        )
        // Never started: no 'close' may follow.
        if (child.pid === undefined) {
          context.signal.removeEventListener('abort', onAbort)
          reject(failure)
        }
      })
      child.on('close', (code, signal) => {
        context.signal.removeEventListener('abort', onAbort)
        clearTimeout(killTimer)
        if (failure !== undefined) return reject(failure)
        if (code !== 0) {
          const tail = stderr
            .split('\n')
            .filter((line) => line.trim() !== '')
            .slice(-5)
          const how = signal ? `was killed by ${signal}` : `exited with code ${code}`
          return reject(
            samplingFailed(
              `the sampling command ${model} ${how}${tail.length > 0 ? `; its last stderr lines:\n  ${tail.join('\n  ')}` : ''}`,
              { exitCode: code },
            ),
          )
        }
        try {
          const answer = parseAnswer(Buffer.concat(stdout).toString('utf8'), request, model)
          resolve(applyStopSequences(answer, request))
        } catch (error) {
          reject(error)
        }
      })
    })
}
