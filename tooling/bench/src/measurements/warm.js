// Warm sessions (`--keep-alive`): a call on a server the daemon keeps warm, against the cheapest
// Node program (`node -e 0`) and against mcpc's warm call on the same server (its `connect`ed
// session and bridge process), side by side in one run; and the first call with --keep-alive,
// which starts the daemon and the server, against today's call without it. Everything runs with
// its own XDG_RUNTIME_DIR (the daemon's socket) and the bench's throwaway HOME (mcpc's sessions).

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { interleave } from '../interleave.js'
import { failedRow, makeRow } from '../rows.js'
import { runChecked } from '../run-process.js'
import { timeCommands } from './process-timing.js'

const packageDirectory = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const mcpcBin = join(packageDirectory, 'node_modules', '@apify', 'mcpc', 'bin', 'mcpc')

/** @param {string} text */
function expectEcho(text) {
  return (stdout) => {
    if (!stdout.toString('utf8').includes(text))
      throw new Error(`expected ${text}, got ${stdout.toString('utf8')}`)
  }
}

/** True while a process with this pid runs (a zombie does not). */
function running(pid) {
  try {
    return !/^\d+ \(.*\) [ZX]/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return false
  }
}

/** @type {import('../main.js').Measurement} */
export async function measureWarm(context, options, log) {
  const runtime = mkdtempSync(join(tmpdir(), 'mcp-kit-bench-runtime-'))
  const warmContext = { ...context, env: { ...context.env, XDG_RUNTIME_DIR: runtime } }
  const reference = `mcp+node://${context.servers.everything}?tool=echo&message=hi`
  const kit = (...args) => ({ command: context.node, args: [context.kitBin, ...args] })
  const run = (label, command, check) =>
    runChecked({ label, ...command, env: warmContext.env }).then((result) => {
      check?.(result.stdout)
      return result
    })
  /** Ends the daemon and its server, and waits until both are gone (not timed). */
  const stopDaemon = async () => {
    const listed = JSON.parse(
      (await run('mcp-kit sessions', kit('sessions', '--format', 'json'))).stdout.toString('utf8'),
    )
    await run('mcp-kit sessions stop --all', kit('sessions', 'stop', '--all'))
    const pids = [listed.daemon?.pid, ...(listed.sessions ?? []).map((session) => session.pid)].filter(
      Boolean,
    )
    for (let tries = 0; tries < 200 && pids.some(running); tries++)
      await new Promise((r) => setTimeout(r, 25))
  }
  const rows = []
  const config = join(runtime, 'mcp.json')
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: { everything: { command: context.node, args: [context.servers.everything] } },
    }),
  )
  const mcpc = (...args) => ({ command: context.node, args: [mcpcBin, ...args] })
  try {
    // Warm calls: the daemon and server started by an untimed first call (the warm-up).
    await run('first mcp-kit call', kit('cat', reference, '--keep-alive', '600s'), expectEcho('Echo: hi'))
    let mcpcProblem
    try {
      await run('mcpc connect', mcpc('connect', `${config}:everything`, '@bench'))
      await run(
        'mcpc warm call',
        mcpc('--json', '@bench', 'tools-call', 'echo', 'message:=hi'),
        expectEcho('Echo: hi'),
      )
    } catch (error) {
      mcpcProblem = error
      log(`  mcpc could not run here: ${error instanceof Error ? error.message : String(error)}`)
    }
    const commands = [
      {
        key: 'kit',
        label: 'mcp-kit cat --keep-alive (warm)',
        ...kit('cat', reference, '--keep-alive', '600s'),
        check: expectEcho('Echo: hi'),
      },
      { key: 'node', label: 'node -e 0', command: context.node, args: ['-e', '0'] },
    ]
    if (mcpcProblem === undefined) {
      commands.push({
        key: 'mcpc',
        label: 'mcpc tools-call (warm)',
        ...mcpc('--json', '@bench', 'tools-call', 'echo', 'message:=hi'),
        check: expectEcho('Echo: hi'),
      })
    }
    const warm = await timeCommands(warmContext, commands, {
      runs: options.runs * 2,
      warmup: options.warmup,
      log,
    })
    rows.push(
      makeRow({
        id: 'warm-node',
        group: 'warm',
        name: 'warm call: cat server-everything echo --keep-alive',
        unit: 'ms',
        kit: warm.kit.wallMs,
        anchor: { name: 'node -e 0', samples: warm.node.wallMs },
        target: { op: '<=', value: 2.0 },
      }),
    )
    const mcpcRow = {
      id: 'warm-mcpc',
      group: 'warm',
      name: 'warm call: cat server-everything echo --keep-alive',
      unit: 'ms',
      target: /** @type {const} */ ({ op: '<=', value: 0.3 }),
      anchorName: 'mcpc 0.2.6 tools-call, connected session',
    }
    rows.push(
      mcpcProblem === undefined
        ? makeRow({
            ...mcpcRow,
            kit: warm.kit.wallMs,
            anchor: { name: mcpcRow.anchorName, samples: warm.mcpc.wallMs },
          })
        : failedRow(mcpcRow, mcpcProblem),
    )

    // First calls: with --keep-alive nothing runs yet (stopped before each run, untimed).
    await stopDaemon()
    const cold = await interleave({
      runs: options.runs,
      warmup: options.warmup,
      contestants: [
        {
          key: 'kit',
          run: async () => {
            await stopDaemon()
            return run(
              'mcp-kit cat --keep-alive (cold)',
              kit('cat', reference, '--keep-alive', '600s'),
              expectEcho('Echo: hi'),
            )
          },
        },
        {
          key: 'today',
          run: () => run('mcp-kit cat (no keep-alive)', kit('cat', reference), expectEcho('Echo: hi')),
        },
      ],
    })
    rows.push(
      makeRow({
        id: 'warm-cold',
        group: 'warm',
        name: 'first call with --keep-alive (starts daemon and server)',
        unit: 'ms',
        kit: cold.kit.map((result) => result.wallMs),
        anchor: { name: 'cat without --keep-alive', samples: cold.today.map((result) => result.wallMs) },
        target: { op: '<=', value: 1.0 },
      }),
    )
  } finally {
    await stopDaemon().catch(() => {})
    await runChecked({ label: 'mcpc close', ...mcpc('@bench', 'close'), env: warmContext.env }).catch(
      () => {},
    )
    rmSync(runtime, { recursive: true, force: true })
  }
  return rows
}
