// The rule for keeping a server warm (session/warm-choice.ts) and which command lines the CLI
// looks at before running them (warm/route.ts): the flag wins over the profile, 0 turns it off,
// and what is no duration is a usage error (the flag) or an invalid profile (the profile's).

import type { ResolvedReference } from '@mcp-kit/profiles'
import { describe, expect, it } from 'vitest'
import { isKitError } from '../../src/base/errors.js'
import { keepAliveFlagIn, keepAliveOf } from '../../src/session/warm-choice.js'
import { mayRunWarm } from '../../src/warm/route.js'

function profile(keepAlive: unknown): ResolvedReference['profile'] {
  return { meta: { keepAlive }, location: { metaPath: '/home/p/kept.json' } } as never
}

function failure(run: () => unknown): string | undefined {
  try {
    run()
  } catch (error) {
    return isKitError(error) ? error.code : 'not a kit error'
  }
  return undefined
}

describe('keepAliveOf', () => {
  it('the flag wins over the profile; 0 is off', () => {
    expect(keepAliveOf('60s', profile('10m'))).toBe(60_000)
    expect(keepAliveOf('0', profile('10m'))).toBeUndefined()
    expect(keepAliveOf(undefined, profile('10m'))).toBe(600_000)
    expect(keepAliveOf(undefined, profile(30))).toBe(30_000)
    expect(keepAliveOf(undefined, profile(0))).toBeUndefined()
    expect(keepAliveOf(undefined, undefined)).toBeUndefined()
    expect(keepAliveOf(undefined, profile(undefined))).toBeUndefined()
  })

  it('a bad flag is a usage error, even over a good profile; a bad profile value an invalid profile', () => {
    expect(failure(() => keepAliveOf('soon', profile('10m')))).toBe('usage')
    expect(failure(() => keepAliveOf('', undefined))).toBe('usage')
    expect(failure(() => keepAliveOf(undefined, profile('soon')))).toBe('profile_invalid')
    expect(failure(() => keepAliveOf(undefined, profile(true)))).toBe('profile_invalid')
    // The flag decides without reading the profile at all.
    expect(failure(() => keepAliveOf('0', profile('soon')))).toBeUndefined()
  })
})

describe('the command line', () => {
  it('finds the last --keep-alive before --, in either spelling', () => {
    expect(keepAliveFlagIn(['cat', 'x', '--keep-alive', '60s'])).toBe('60s')
    expect(keepAliveFlagIn(['cat', 'x', '--keep-alive=0'])).toBe('0')
    expect(keepAliveFlagIn(['cat', '--keep-alive', '1m', 'x', '--keep-alive', '2m'])).toBe('2m')
    expect(keepAliveFlagIn(['cat', 'x', '--keep-alive'])).toBe('')
    expect(keepAliveFlagIn(['cat', 'x', '--keep-alive', '--verbose'])).toBe('')
    expect(keepAliveFlagIn(['cat', '--', 'node', 's.js', '--keep-alive', '60s'])).toBeUndefined()
    expect(keepAliveFlagIn(['cat', 'x'])).toBeUndefined()
  })

  it('only the commands that may run warm are routed, and never their --help', () => {
    for (const command of ['cat', 'head', 'tail', 'put', 'inspect', 'watch', 'task'])
      expect(mayRunWarm([command, '@p'])).toBe(true)
    for (const command of ['generate', 'ui', 'shell', 'test', 'sessions', 'serve', 'profile'])
      expect(mayRunWarm([command, '@p'])).toBe(false)
    expect(mayRunWarm(['cat', '@p', '--help'])).toBe(false)
    expect(mayRunWarm(['cat', '@p', '-h'])).toBe(false)
    expect(mayRunWarm(['cat', '--', 'node', 's.js', '--help'])).toBe(true)
  })
})
