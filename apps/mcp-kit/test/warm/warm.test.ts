// @module-tag integration
// Warm sessions (--keep-alive): real CLI processes, a real daemon per test (its own
// XDG_RUNTIME_DIR), real servers. Reuse is proven by server pids (the fixtures write theirs to a
// file), cleanup by checking every pid is gone, and the socket's guard by the user's own
// directory — and, when the tests run as root, by another user who tries to use it.

import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { processRunning } from '@mcp-kit/client/internal'
import { fixtureServers, importedModules } from '@mcp-kit/fixtures'
import { afterEach, describe, expect, it } from 'vitest'
import { binPath, cacheHome, pidFile, records, runCli, startServe, stopStarted } from '../helpers/helpers.js'

const basic = fixtureServers.basic
const echo = (message: string) => `mcp+node://${basic}?tool=echo&message=${message}`

interface Listed {
  daemon: { pid: number; socket: string } | null
  sessions: { id: string; pid: number | null; calls: number; reference: string; transport: string }[]
}

/** One test's runtime directory, and what it started, for cleanup. */
interface Warm {
  runtime: string
  env: Record<string, string>
  daemons: Set<number>
  servers: Set<number>
}

const warms: Warm[] = []
const nobody = 65534
const isRoot = process.getuid?.() === 0

function warm(): Warm {
  const runtime = mkdtempSync(join(tmpdir(), 'mcp-kit-warm-'))
  const created: Warm = { runtime, env: { XDG_RUNTIME_DIR: runtime }, daemons: new Set(), servers: new Set() }
  warms.push(created)
  return created
}

async function list(w: Warm): Promise<Listed> {
  const result = await runCli(['sessions', '--format', 'json'], { env: w.env })
  expect(result.code, result.stderr).toBe(0)
  const listed = JSON.parse(result.stdout) as Listed
  if (listed.daemon) w.daemons.add(listed.daemon.pid)
  for (const session of listed.sessions) if (session.pid !== null) w.servers.add(session.pid)
  return listed
}

afterEach(async () => {
  await stopStarted()
  for (const w of warms.splice(0)) {
    await runCli(['sessions', 'stop', '--all'], { env: w.env })
    const pids = [...w.daemons, ...w.servers]
    await expect.poll(() => pids.filter(processRunning), { timeout: 10_000 }).toEqual([])
    rmSync(w.runtime, { recursive: true, force: true })
  }
})

describe.skipIf(process.platform !== 'linux')('--keep-alive', () => {
  it('a second cat reuses the server (same pid); the warm session is listed', async () => {
    const w = warm()
    const pids = pidFile()
    try {
      const args = ['cat', echo('one'), '--keep-alive', '60s', '--env', pids.flag]
      const first = await runCli(args, { env: w.env })
      expect(first.code, first.stderr).toBe(0)
      expect(records(first.stdout)).toEqual([{ type: 'text', text: 'one' }])
      const second = await runCli(['cat', echo('two'), '--keep-alive', '60s', '--env', pids.flag], {
        env: w.env,
      })
      expect(second.code, second.stderr).toBe(0)
      expect(records(second.stdout)).toEqual([{ type: 'text', text: 'two' }])
      expect(pids.pids()).toHaveLength(1)
      const listed = await list(w)
      expect(listed.sessions).toHaveLength(1)
      expect(listed.sessions[0]).toMatchObject({ pid: pids.pids()[0], calls: 2, transport: 'stdio' })
      expect(processRunning(pids.pids()[0] as number)).toBe(true)
    } finally {
      pids.remove()
    }
  })

  it('a different environment starts another server; the same one again reuses it', async () => {
    const w = warm()
    const pids = pidFile()
    try {
      const call = (mark: string) =>
        runCli(['cat', echo(mark), '--keep-alive', '60s', '--env', pids.flag, '--env', `MARK=${mark}`], {
          env: w.env,
        })
      expect((await call('a')).code).toBe(0)
      expect((await call('b')).code).toBe(0)
      expect(pids.pids()).toHaveLength(2)
      expect((await call('a')).code).toBe(0)
      expect(pids.pids()).toHaveLength(2)
      // A variable the server inherits (PATH is one) changes its environment too.
      const inherited = await runCli(
        ['cat', echo('a'), '--keep-alive', '60s', '--env', pids.flag, '--env', 'MARK=a'],
        {
          env: { ...w.env, PATH: `${process.env.PATH}:/nonexistent` },
        },
      )
      expect(inherited.code, inherited.stderr).toBe(0)
      expect(pids.pids()).toHaveLength(3)
      expect((await list(w)).sessions.map((session) => session.calls).sort()).toEqual([1, 1, 2])
    } finally {
      pids.remove()
    }
  })

  it('sessions stop ends one session; stop --all leaves no process at all', async () => {
    const w = warm()
    const pids = pidFile()
    try {
      for (const mark of ['a', 'b']) {
        const result = await runCli(
          ['cat', echo(mark), '--keep-alive', '60s', '--env', pids.flag, '--env', `MARK=${mark}`],
          { env: w.env },
        )
        expect(result.code, result.stderr).toBe(0)
      }
      const listed = await list(w)
      expect(listed.sessions).toHaveLength(2)
      const [one, two] = listed.sessions as [Listed['sessions'][0], Listed['sessions'][0]]
      const stopped = await runCli(['sessions', 'stop', one.id.slice(0, 6)], { env: w.env })
      expect(stopped.code, stopped.stderr).toBe(0)
      expect(stopped.stdout).toContain(`stopped ${one.id}`)
      expect(processRunning(one.pid as number)).toBe(false)
      expect(processRunning(two.pid as number)).toBe(true)
      const unknown = await runCli(['sessions', 'stop', 'ffffffffffff'], { env: w.env })
      expect(unknown.code).toBe(2)
      const all = await runCli(['sessions', 'stop', '--all'], { env: w.env })
      expect(all.code, all.stderr).toBe(0)
      expect(processRunning(two.pid as number)).toBe(false)
      const daemon = listed.daemon?.pid as number
      await expect.poll(() => processRunning(daemon), { timeout: 5_000 }).toBe(false)
      expect(pids.running()).toEqual([])
      const after = await runCli(['sessions'], { env: w.env })
      expect(after.stdout).toContain('no warm sessions')
    } finally {
      pids.remove()
    }
  })

  it('killing the daemon (SIGKILL) ends its servers', async () => {
    const w = warm()
    const pids = pidFile()
    try {
      for (const mark of ['a', 'b']) {
        const result = await runCli(
          ['cat', echo(mark), '--keep-alive', '60s', '--env', pids.flag, '--env', `MARK=${mark}`],
          { env: w.env },
        )
        expect(result.code, result.stderr).toBe(0)
      }
      const listed = await list(w)
      expect(pids.running()).toHaveLength(2)
      process.kill(listed.daemon?.pid as number, 'SIGKILL')
      await expect.poll(() => pids.running(), { timeout: 10_000, interval: 50 }).toEqual([])
      // The next warm call starts a new daemon over the dead one's socket.
      const again = await runCli(['cat', echo('again'), '--keep-alive', '60s'], { env: w.env })
      expect(again.code, again.stderr).toBe(0)
      const relisted = await list(w)
      expect(relisted.daemon?.pid).not.toBe(listed.daemon?.pid)
    } finally {
      pids.remove()
    }
  })

  it('a warm call loads only the relay: no yargs, SDK, ajv, undici or mcp-kit package but the vocabulary of core', async () => {
    const w = warm()
    const first = await runCli(['cat', echo('cold'), '--keep-alive', '60s'], { env: w.env })
    expect(first.code, first.stderr).toBe(0)
    const saved = process.env.XDG_RUNTIME_DIR
    process.env.XDG_RUNTIME_DIR = w.runtime
    try {
      const { code, stdout, urls } = await importedModules([
        binPath,
        'cat',
        echo('warm'),
        '--keep-alive',
        '60s',
      ])
      expect(code).toBe(0)
      expect(records(stdout)).toEqual([{ type: 'text', text: 'warm' }])
      expect(urls.some((url) => url.endsWith('/dist/warm/warm-client.js'))).toBe(true)
      // @mcp-kit/core (the errors' base, no dependencies) is the one package the relay may load.
      const heavy =
        /\/yargs|@modelcontextprotocol|\/ajv\/|\/undici\/|\/packages\/(?!core\/)|\/(cli|program)\//
      expect(urls.filter((url) => heavy.test(url))).toEqual([])
      // The same hook sees them all in a call of its own: the check above is not vacuous.
      const own = await importedModules([binPath, 'cat', echo('own')])
      expect(own.urls.filter((url) => heavy.test(url)).length).toBeGreaterThan(10)
    } finally {
      if (saved === undefined) delete process.env.XDG_RUNTIME_DIR
      else process.env.XDG_RUNTIME_DIR = saved
    }
    await list(w)
  })

  it('the server leaves after its keep-alive time without use; then the daemon does too', async () => {
    const w = warm()
    const pids = pidFile()
    try {
      // Long enough to be listed once on a loaded machine, short enough to wait out.
      const result = await runCli(['cat', echo('short'), '--keep-alive', '4s', '--env', pids.flag], {
        env: w.env,
      })
      expect(result.code, result.stderr).toBe(0)
      const listed = await list(w)
      expect(listed.sessions).toHaveLength(1)
      await expect.poll(() => pids.running(), { timeout: 20_000 }).toEqual([])
      await expect.poll(() => processRunning(listed.daemon?.pid as number), { timeout: 20_000 }).toBe(false)
    } finally {
      pids.remove()
    }
  })
})

describe.skipIf(process.platform !== 'linux')('a warm call keeps the per-call semantics', () => {
  it('exit codes, --timeout and Ctrl-C end the call, not the server', async () => {
    const w = warm()
    const pids = pidFile()
    try {
      const base = ['--keep-alive', '60s', '--env', pids.flag]
      const failed = await runCli(['cat', `mcp+node://${basic}?tool=fail`, ...base], { env: w.env })
      expect(failed.code).toBe(1)
      expect(records(failed.stdout)).toEqual([
        { error: { code: 'tool_error', message: 'this tool always fails' } },
      ])
      const usage = await runCli(['cat', `mcp+node://${basic}?tool=add&a=x`, ...base], { env: w.env })
      expect(usage.code).toBe(2)
      expect(usage.stderr).toContain("invalid arguments for tool 'add'")
      const timedOut = await runCli(['cat', `mcp+node://${basic}?tool=hang`, '--timeout', '0.5', ...base], {
        env: w.env,
      })
      expect(timedOut.code).toBe(4)
      let stderr = ''
      const cancelled = await runCli(
        ['cat', `mcp+node://${basic}?tool=progress&steps=100&step_ms=100`, '--verbose', ...base],
        {
          env: w.env,
          onSpawn: (child) => {
            // Once the command has its warm session and the call runs, press Ctrl-C.
            child.stderr?.setEncoding('utf8').on('data', (text: string) => {
              stderr += text
              if (/warm session \w+ \(reused/.test(stderr) && !child.killed)
                setTimeout(() => child.kill('SIGINT'), 300)
            })
          },
        },
      )
      expect(cancelled.code, stderr).toBe(130)
      const after = await runCli(['cat', echo('still-here'), ...base], { env: w.env })
      expect(after.code, after.stderr).toBe(0)
      expect(records(after.stdout)).toEqual([{ type: 'text', text: 'still-here' }])
      expect(pids.pids()).toHaveLength(1)
      expect(pids.running()).toHaveLength(1)
    } finally {
      pids.remove()
    }
  })

  it('put reads stdin through the daemon: the same records and exit code as without', async () => {
    const w = warm()
    const pids = pidFile()
    try {
      const input = '{"message":"one"}\n{"message":2}\n{"message":"three"}\n'
      const put = (extra: string[]) =>
        runCli(['put', `mcp+node://${basic}?tool=echo`, '--env', pids.flag, ...extra], { env: w.env, input })
      const cold = await put([])
      expect(records(cold.stdout)).toHaveLength(3)
      for (let round = 0; round < 2; round++) {
        const result = await put(['--keep-alive', '60s'])
        expect(result.code).toBe(cold.code)
        expect(result.stdout).toBe(cold.stdout)
        expect(result.stderr).toBe(cold.stderr)
      }
      // One server for the cold run (gone), one warm server for both warm runs.
      expect(pids.pids()).toHaveLength(2)
      expect(pids.running()).toHaveLength(1)
    } finally {
      pids.remove()
    }
  })

  it("paths are the command's: a relative --trace file lands in its working directory", async () => {
    const w = warm()
    const directory = mkdtempSync(join(tmpdir(), 'mcp-kit-warm-cwd-'))
    try {
      const result = await runCli(['cat', echo('traced'), '--keep-alive', '60s', '--trace', 'calls.ndjson'], {
        env: w.env,
        cwd: directory,
      })
      expect(result.code, result.stderr).toBe(0)
      const [entry] = readFileSync(join(directory, 'calls.ndjson'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
      expect(entry).toMatchObject({ kind: 'tool_call', name: 'echo', ok: true, args: { message: 'traced' } })
    } finally {
      rmSync(directory, { recursive: true, force: true })
    }
  })

  it('a warm cat does not read the stdin it was not asked for', async () => {
    const w = warm()
    const script = `printf 'keep me\\n' | { "${process.execPath}" "${binPath}" cat '${echo('x')}' --keep-alive 60s >/dev/null; cat; }`
    const result = spawnSync('/bin/sh', ['-c', script], {
      env: { ...process.env, ...w.env },
      encoding: 'utf8',
    })
    expect(result.stdout).toBe('keep me\n')
    await list(w)
  })

  it("a profile's keepAlive keeps its server warm, without the flag", async () => {
    const w = warm()
    const home = mkdtempSync(join(tmpdir(), 'mcp-kit-warm-home-'))
    const pids = pidFile()
    try {
      mkdirSync(join(home, 'profiles'))
      writeFileSync(
        join(home, 'profiles', 'kept.json'),
        JSON.stringify({
          command: process.execPath,
          args: [basic],
          env: { FIXTURE_PID_FILE: pids.path },
          keepAlive: '30s',
        }),
      )
      const env = { ...w.env, MCP_KIT_HOME: home }
      for (const message of ['one', 'two']) {
        const result = await runCli(['cat', '@kept/echo', `message=${message}`], { env })
        expect(result.code, result.stderr).toBe(0)
        expect(records(result.stdout)).toEqual([{ type: 'text', text: message }])
      }
      expect(pids.pids()).toHaveLength(1)
      const listed = await list(w)
      expect(listed.sessions.map((session) => [session.reference, session.calls])).toEqual([['@kept', 2]])
      // --keep-alive 0 overrides the profile: a server of its own, ended with the command.
      const own = await runCli(['cat', '@kept/echo', 'message=three', '--keep-alive', '0'], { env })
      expect(own.code, own.stderr).toBe(0)
      expect(pids.pids()).toHaveLength(2)
      expect(pids.running()).toHaveLength(1)
      // A changed profile means a new server.
      writeFileSync(
        join(home, 'profiles', 'kept.json'),
        JSON.stringify({
          command: process.execPath,
          args: [basic],
          env: { FIXTURE_PID_FILE: pids.path, CHANGED: '1' },
          keepAlive: '30s',
        }),
      )
      const changed = await runCli(['cat', '@kept/echo', 'message=four'], { env })
      expect(changed.code, changed.stderr).toBe(0)
      expect(pids.pids()).toHaveLength(3)
      expect(pids.running()).toHaveLength(2)
      writeFileSync(
        join(home, 'profiles', 'bad.json'),
        JSON.stringify({ command: process.execPath, args: [basic], keepAlive: 'soon' }),
      )
      const bad = await runCli(['cat', '@bad/echo', 'message=x'], { env })
      expect(bad.code).toBe(2)
      expect(bad.stderr).toContain("'keepAlive' must be a duration")
    } finally {
      pids.remove()
      rmSync(home, { recursive: true, force: true })
    }
  })

  it('watch shares the warm server: a change made by another command reaches it', async () => {
    const w = warm()
    const pids = pidFile()
    const watcher: ChildProcess = spawn(
      process.execPath,
      [binPath, 'watch', `mcp+node://${basic}`, '--keep-alive', '60s', '--env', pids.flag],
      {
        env: { ...process.env, XDG_CACHE_HOME: cacheHome, ...w.env, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    try {
      let stdout = ''
      watcher.stdout?.setEncoding('utf8').on('data', (text: string) => (stdout += text))
      const exited = new Promise<number | null>((resolve) => watcher.once('exit', resolve))
      await expect.poll(async () => (await list(w)).sessions.length, { timeout: 15_000 }).toBe(1)
      const grow = await runCli(
        ['cat', `mcp+node://${basic}?tool=grow`, '--keep-alive', '60s', '--env', pids.flag],
        {
          env: w.env,
        },
      )
      expect(grow.code, grow.stderr).toBe(0)
      await expect.poll(() => stdout, { timeout: 10_000 }).toContain('notifications/tools/list_changed')
      expect(pids.pids()).toHaveLength(1)
      watcher.kill('SIGINT')
      expect(await exited).toBe(130)
      expect(pids.running()).toHaveLength(1)
    } finally {
      watcher.kill('SIGKILL')
      pids.remove()
    }
  })

  it('an HTTP server: one warm connection and 2025 session for both calls', async () => {
    const w = warm()
    // One session at most: a second initialize would be refused (503).
    const serving = await startServe(['--port', '0', '--max-sessions', '1'])
    const reference = `mcp+${serving.url}?tool=echo&message=hi`
    const call = (extra: string[]) =>
      runCli(['cat', reference, '--protocol', '2025-11-25', ...extra], { env: w.env })
    for (let round = 0; round < 2; round++) {
      const result = await call(['--keep-alive', '30s'])
      expect(result.code, result.stderr).toBe(0)
      expect(records(result.stdout)).toEqual([{ type: 'text', text: 'hi' }])
    }
    const listed = await list(w)
    expect(listed.sessions).toHaveLength(1)
    expect(listed.sessions[0]).toMatchObject({ transport: 'http', pid: null, calls: 2 })
    // The warm session holds the server's only session: a command of its own is refused.
    const cold = await call([])
    expect(cold.code).toBe(3)
    expect(cold.stderr).toContain('503')
  })
})

describe.skipIf(process.platform !== 'linux')("the daemon's socket is the user's alone", () => {
  it('a runtime directory that others may open, or a link, is refused', async () => {
    const loose = warm()
    mkdirSync(join(loose.runtime, 'mcp-kit'), { mode: 0o755 })
    chmodSync(join(loose.runtime, 'mcp-kit'), 0o755)
    const refused = await runCli(['cat', echo('x'), '--keep-alive', '60s'], { env: loose.env })
    expect(refused.code).toBe(3)
    expect(refused.stderr).toContain('other users may open it (mode 755, needs 700)')
    expect((await runCli(['sessions'], { env: loose.env })).code).toBe(3)

    const linked = warm()
    const elsewhere = mkdtempSync(join(tmpdir(), 'mcp-kit-warm-elsewhere-'))
    symlinkSync(elsewhere, join(linked.runtime, 'mcp-kit'))
    const viaLink = await runCli(['cat', echo('x'), '--keep-alive', '60s'], { env: linked.env })
    expect(viaLink.code).toBe(3)
    expect(viaLink.stderr).toContain('it is a symbolic link')
    rmSync(elsewhere, { recursive: true, force: true })
  })

  it.skipIf(!isRoot)("another user's directory is refused, and its socket cannot be opened", async () => {
    const w = warm()
    const result = await runCli(['cat', echo('mine'), '--keep-alive', '60s'], { env: w.env })
    expect(result.code, result.stderr).toBe(0)
    const listed = await list(w)
    const socket = listed.daemon?.socket as string
    // The runtime base may be searched by others; the daemon's own directory stays closed.
    chmodSync(w.runtime, 0o755)
    const asNobody = { uid: nobody, gid: nobody, encoding: 'utf8' as const }
    const theirCat = spawnSync(process.execPath, [binPath, 'cat', echo('theirs'), '--keep-alive', '60s'], {
      ...asNobody,
      env: { PATH: process.env.PATH, XDG_RUNTIME_DIR: w.runtime, HOME: '/nonexistent' },
      cwd: '/',
    })
    expect(theirCat.status).toBe(3)
    expect(theirCat.stderr).toContain(`belongs to uid 0, not to you (uid ${nobody})`)
    // Even without mcp-kit's checks, the kernel refuses: the directory is 0700.
    const connect = `require('net').connect(${JSON.stringify(socket)}).on('connect', () => { console.log('connected'); process.exit(0) }).on('error', (e) => { console.log(e.code); process.exit(1) })`
    const raw = spawnSync(process.execPath, ['-e', connect], { ...asNobody, cwd: '/' })
    expect(raw.stdout.trim()).toBe('EACCES')
    // A directory another user made for us is refused too, even with the right mode.
    const planted = warm()
    mkdirSync(join(planted.runtime, 'mcp-kit'), { mode: 0o700 })
    chownSync(join(planted.runtime, 'mcp-kit'), nobody, nobody)
    const refused = await runCli(['cat', echo('x'), '--keep-alive', '60s'], { env: planted.env })
    expect(refused.code).toBe(3)
    expect(refused.stderr).toContain(`belongs to uid ${nobody}, not to you (uid 0)`)
  })
})
