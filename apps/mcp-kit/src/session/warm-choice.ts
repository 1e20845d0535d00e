// Whether a command keeps its server warm, and for how long: one rule, used wherever the question
// comes up — by the CLI before a command runs (warm/route.ts), by the daemon when a CLI offers it
// a command on a profile (warm/daemon.ts), and by openSession inside the daemon.
//
// The rule: `--keep-alive` wins (0: not at all; what is no duration is a usage error); without
// it, the profile's `keepAlive` (what is no duration is an invalid profile). Only the commands in
// `warmCommands` run in the daemon; any other command connects directly.
//
// It loads no profile code: a `--keep-alive` relay decides without @mcp-kit/profiles.

import type { ResolvedReference } from '@mcp-kit/profiles'
import { parseDuration } from '../base/duration.js'
import { CliError } from '../base/errors.js'

/** The commands that may run in the warm-session daemon, sharing its warm servers. */
export const warmCommands = ['cat', 'head', 'tail', 'put', 'inspect', 'watch', 'task']

/** `--keep-alive VALUE` in milliseconds; undefined for 0 (not at all); a usage error for what is no duration. */
export function keepAliveFlag(value: string): number | undefined {
  const milliseconds = parseDuration(value)
  if (milliseconds === undefined)
    throw new CliError(
      'usage',
      `--keep-alive ${JSON.stringify(value)}: expected a duration like 60s, 10m or 1h`,
    )
  return milliseconds === 0 ? undefined : milliseconds
}

/** A profile's `keepAlive` in milliseconds; undefined without one or for 0; an invalid profile for what is no duration. */
export function profileKeepAlive(profile: ResolvedReference['profile']): number | undefined {
  const value = profile?.meta.keepAlive
  if (profile === undefined || value === undefined) return undefined
  const milliseconds =
    typeof value === 'string' || typeof value === 'number' ? parseDuration(value) : undefined
  if (milliseconds === undefined) {
    throw new CliError(
      'profile_invalid',
      `${profile.location.metaPath}: 'keepAlive' must be a duration like "60s", "10m" or a number of seconds`,
      { details: { file: profile.location.metaPath, field: 'keepAlive' } },
    )
  }
  return milliseconds === 0 ? undefined : milliseconds
}

/** How long to keep the server after the command, by the rule above; undefined: not at all. */
export function keepAliveOf(
  flag: string | undefined,
  profile: ResolvedReference['profile'],
): number | undefined {
  return flag === undefined ? profileKeepAlive(profile) : keepAliveFlag(flag)
}

/**
 * The value of `--keep-alive` in a command line (the last one, before any `--`): '' when it has
 * none (the rule calls that no duration), undefined when the flag is absent.
 */
export function keepAliveFlagIn(argv: readonly string[]): string | undefined {
  let value: string | undefined
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string
    if (arg === '--') break
    if (arg === '--keep-alive') {
      const next = argv[index + 1]
      value = next === undefined || /^-\D/.test(next) ? '' : next
    } else if (arg.startsWith('--keep-alive=')) value = arg.slice('--keep-alive='.length)
  }
  return value
}
