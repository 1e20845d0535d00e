// npx started outside any project: connect() gives it `--prefix` (an empty directory of this
// package) unless npx's own options already say which project, and the server keeps its cwd.
// The real npx inside a pnpm-style project: apps/mcp-kit/test/session/npx-project.test.ts.

import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { connect } from '../../src/index.js'
import { emptyProjectDirectory, isNpx, npxArguments } from '../../src/stdio/npx-prefix.js'

describe('npxArguments', () => {
  const prefix = '/empty'

  it('puts --prefix before npx’s own options', () => {
    expect(npxArguments('npx', ['-y', 'pkg@1.0.0', '--port', '1'], prefix)).toEqual([
      '--prefix',
      '/empty',
      '-y',
      'pkg@1.0.0',
      '--port',
      '1',
    ])
    expect(npxArguments('/usr/local/bin/npx', ['pkg'], prefix)[1]).toBe('/empty')
    expect(isNpx('C:\\nodejs\\npx.cmd')).toBe(true)
  })

  it('leaves other commands, npx told its project, and `false` alone', () => {
    const args = ['-y', 'pkg']
    expect(npxArguments('node', args, prefix)).toBe(args)
    expect(npxArguments('npx-like', args, prefix)).toBe(args)
    for (const own of [
      ['--prefix', '.', 'pkg'],
      ['--prefix=.', 'pkg'],
      ['-y', '-w', 'app', 'pkg'],
      ['--workspaces', 'pkg'],
      ['-p', 'pkg', '--prefix', '.', 'cmd'],
    ])
      expect(npxArguments('npx', own, prefix)).toBe(own)
    expect(npxArguments('npx', args, false)).toBe(args)
  })

  it('reads npx options only up to the package: the server’s own --prefix is the server’s', () => {
    expect(npxArguments('npx', ['-y', 'pkg', '--prefix', 'x'], prefix)).toEqual([
      '--prefix',
      '/empty',
      '-y',
      'pkg',
      '--prefix',
      'x',
    ])
    expect(npxArguments('npx', ['--', '--prefix'], prefix)[0]).toBe('--prefix')
  })

  it('names a directory with nothing installed in it and no package.json', () => {
    expect(existsSync(emptyProjectDirectory)).toBe(true)
    const names = readdirSync(emptyProjectDirectory)
    expect(names).not.toContain('node_modules')
    expect(names).not.toContain('package.json')
    expect(existsSync(join(emptyProjectDirectory, 'npx-prefix.ts'))).toBe(true)
  })
})

describe('connect() starting npx', () => {
  /** A spawn that records what it was asked to start, then fails as a missing command does. */
  function recordingSpawn() {
    const calls: Array<{ command: string; args: string[]; cwd: unknown }> = []
    const spawn = ((command: string, args: string[], options: { cwd?: unknown }) => {
      calls.push({ command, args, cwd: options.cwd })
      throw Object.assign(new Error(`spawn ${command} ENOENT`), { code: 'ENOENT' })
    }) as never
    return { calls, spawn }
  }

  it('starts npx with --prefix, in the working directory it was given', async () => {
    const { calls, spawn } = recordingSpawn()
    const diagnostics: string[] = []
    await expect(
      connect(
        { transport: 'stdio', command: 'npx', args: ['-y', 'pkg@1.0.0'] },
        { spawn, cwd: '/work/project', onDiagnostic: (line) => diagnostics.push(line) },
      ),
    ).rejects.toMatchObject({ code: 'launch_failed' })
    expect(calls[0]).toEqual({
      command: 'npx',
      args: ['--prefix', emptyProjectDirectory, '-y', 'pkg@1.0.0'],
      cwd: '/work/project',
    })
    expect(diagnostics.join('\n')).toContain(`npx gets --prefix ${emptyProjectDirectory}`)
  })

  it('takes another prefix, or none', async () => {
    const other = recordingSpawn()
    await expect(
      connect(
        { transport: 'stdio', command: 'npx', args: ['pkg'] },
        { spawn: other.spawn, npxPrefix: '/mine' },
      ),
    ).rejects.toThrow()
    expect(other.calls[0]?.args).toEqual(['--prefix', '/mine', 'pkg'])
    const none = recordingSpawn()
    await expect(
      connect({ transport: 'stdio', command: 'npx', args: ['pkg'] }, { spawn: none.spawn, npxPrefix: false }),
    ).rejects.toThrow()
    expect(none.calls[0]?.args).toEqual(['pkg'])
  })
})
