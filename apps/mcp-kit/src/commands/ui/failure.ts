// A failed connection explained: which step failed (resolve, spawn, initialize, HTTP, OAuth), in
// the error's own words, the server's last stderr lines, and what to do about it.

import { inFlagTerms } from '../../output/flag-wording.js'
import { sanitizeText } from '../../output/sanitize.js'

export type FailedStep = 'resolve' | 'spawn' | 'connect' | 'probe' | 'initialize' | 'http' | 'oauth' | 'list'

export interface Failure {
  step: FailedStep
  code: string
  message: string
  fix: string
  /** The server's last stderr lines (stdio), escaped. */
  stderr: string[]
  httpStatus?: number
  exitCode?: number | null
}

function detailsOf(error: unknown): Record<string, unknown> {
  const details = (error as { details?: unknown }).details
  return typeof details === 'object' && details !== null ? (details as Record<string, unknown>) : {}
}

function linesOf(value: unknown): string[] {
  const text = Array.isArray(value) ? value.join('\n') : typeof value === 'string' ? value : ''
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(-20)
    .map((line) => sanitizeText(line))
}

/** The explanation of a connect failure; `stderr` is what the server printed while starting. */
export function explainFailure(error: unknown, stderr: readonly string[], reference: string): Failure {
  const code = (error as { code?: unknown }).code
  const kitCode = typeof code === 'string' ? code : 'internal'
  const message = sanitizeText(inFlagTerms((error as Error)?.message ?? String(error)))
  const details = detailsOf(error)
  const tail = linesOf(details.stderr).length > 0 ? linesOf(details.stderr) : stderr.slice(-20)
  const base = { code: kitCode, message, stderr: tail }
  switch (kitCode) {
    case 'invalid_reference':
    case 'profile_not_found':
    case 'profile_invalid':
    case 'missing_env':
    case 'usage':
      return {
        ...base,
        step: 'resolve',
        fix:
          kitCode === 'missing_env'
            ? 'Set the variable the profile names (or store it: mcp-kit profile secret set), then reconnect.'
            : 'Check the reference: mcp+npx://package, mcp+http://host/mcp, @profile (mcp-kit profile list), or a command line.',
      }
    case 'launch_failed':
      return {
        ...base,
        step: 'spawn',
        fix: `The command could not be started. Check that it is installed and on PATH (or give its full path), and that its working directory exists. Try it by hand: mcp-kit inspect ${reference} --verbose`,
      }
    case 'auth_required':
      return {
        ...base,
        step: 'oauth',
        fix: `The server needs a login. Use "Log in" here, or run: mcp-kit auth login ${reference}`,
      }
    case 'http_error': {
      const status = typeof details.status === 'number' ? details.status : undefined
      const fix =
        status === 401 || status === 403
          ? `The server refused the credentials. Log in (mcp-kit auth login ${reference}) or give a header: --header 'Authorization: Bearer …'.`
          : status === 404 || status === 405
            ? 'Nothing speaks MCP at that path: check the URL (often it ends in /mcp).'
            : 'The server answered with an HTTP error: check the URL and the server’s logs.'
      return { ...base, step: 'http', fix, ...(status === undefined ? {} : { httpStatus: status }) }
    }
    case 'timeout':
      return {
        ...base,
        step: 'initialize',
        fix: 'The server did not finish initializing in time. It may be downloading (npx, uvx) or not speaking MCP on stdout: raise --connect-timeout, or run it by hand to see what it prints.',
      }
    case 'protocol_error':
      return {
        ...base,
        step: 'initialize',
        fix: 'The server refused or garbled the handshake: try pinning a revision (--protocol 2025-11-25) and look at the timeline for its answer.',
      }
    case 'connect_failed': {
      if ('exitCode' in details || 'signal' in details) {
        return {
          ...base,
          step: 'initialize',
          exitCode: (details.exitCode as number | null | undefined) ?? null,
          fix: 'The server exited before it finished initializing. Its last words are below; run the command by hand to see the rest.',
        }
      }
      return {
        ...base,
        step: 'connect',
        fix: 'Nothing answered at that address: is the server running, and on that port?',
      }
    }
    default:
      return {
        ...base,
        step: 'initialize',
        fix: `Run it on the command line for more: mcp-kit inspect ${reference} --verbose`,
      }
  }
}
