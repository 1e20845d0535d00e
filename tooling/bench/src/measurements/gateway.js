// The gateway rows: what `mcp-kit serve <upstream>` adds to a call against calling the same
// upstream directly — p50 and p99 of sequential echo calls over HTTP and over stdio, rounds
// interleaved, both sides through the same client — and the gateway's memory per upstream and
// per client session.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect } from '@mcp-kit/client'
import { startHttpServer } from '../http-server-process.js'
import { openSessions } from '../http-session.js'
import { makeRow } from '../rows.js'
import { readMemoryKib } from '../run-process.js'
import { median } from '../statistics.js'

const sizes = {
  full: { calls: 2000, rounds: 5, upstreams: 10, sessions: 500 },
  quick: { calls: 500, rounds: 2, upstreams: 5, sessions: 200 },
  smoke: { calls: 20, rounds: 1, upstreams: 2, sessions: 10 },
}

/** @param {number[]} values @param {number} fraction */
function percentile(values, fraction) {
  const sorted = [...values].sort((left, right) => left - right)
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]
}

/** Sequential calls; returns each call's time in ms. */
async function timeCalls(session, tool, count) {
  const times = []
  for (let index = 0; index < count; index++) {
    const started = performance.now()
    await session.callTool(tool, { message: 'x' })
    times.push(performance.now() - started)
  }
  return times
}

/** The upstream reference that launches `mcp-kit serve --stdio` (the demo registry). */
function stdioUpstream(context) {
  return `mcp+node://${context.kitBin}?arg=serve&arg=--stdio`
}

/**
 * Interleaved rounds of direct and gateway calls; rows for p50 (target: at most 10% added) and p99.
 * @param {string} transport
 * @param {{ session: any, tool: string }} direct
 * @param {{ session: any, tool: string }} gateway
 */
async function latencyRows(
  transport,
  direct,
  gateway,
  size,
  log,
  label = transport,
  upstreamNote = 'demo registry',
) {
  await timeCalls(direct.session, direct.tool, Math.min(200, size.calls))
  await timeCalls(gateway.session, gateway.tool, Math.min(200, size.calls))
  const p50 = { direct: [], gateway: [] }
  const p99 = { direct: [], gateway: [] }
  for (let round = 0; round < size.rounds; round++) {
    const order = round % 2 === 0 ? ['direct', 'gateway'] : ['gateway', 'direct']
    for (const side of order) {
      const target = side === 'direct' ? direct : gateway
      const times = await timeCalls(target.session, target.tool, size.calls)
      p50[side].push(percentile(times, 0.5))
      p99[side].push(percentile(times, 0.99))
    }
  }
  const added = median(p50.gateway) - median(p50.direct)
  log(
    `  ${transport}: p50 ${median(p50.direct).toFixed(3)} → ${median(p50.gateway).toFixed(3)} ms (+${added.toFixed(3)} ms)`,
  )
  return [
    makeRow({
      id: `gateway-${transport}-p50`,
      group: 'gateway',
      name: `tools/call p50 through the gateway, ${label} (added: ${added.toFixed(2)} ms)`,
      unit: 'ms',
      kit: p50.gateway,
      anchor: { name: 'the same upstream called directly', samples: p50.direct },
      target: { op: '<=', value: 1.1 },
      note: `sequential echo calls to \`mcp-kit serve\` (${upstreamNote}), the same client on both sides`,
    }),
    makeRow({
      id: `gateway-${transport}-p99`,
      group: 'gateway',
      name: `tools/call p99 through the gateway, ${label}`,
      unit: 'ms',
      kit: p99.gateway,
      anchor: { name: 'the same upstream called directly', samples: p99.direct },
    }),
  ]
}

/** @type {import('../main.js').Measurement} */
export async function measureGateway(context, options, log) {
  const size = sizes[options.mode] ?? sizes.quick
  const cache = mkdtempSync(join(tmpdir(), 'mcp-kit-bench-gateway-'))
  const env = { ...context.env, XDG_CACHE_HOME: cache }
  const node = { command: context.node, env }
  const rows = []
  const stops = []
  try {
    // HTTP: an upstream `mcp-kit serve --port 0`, and a gateway in front of it.
    const upstream = await startHttpServer({
      label: 'upstream',
      ...node,
      args: [context.kitBin, 'serve', '--port', '0'],
    })
    stops.push(upstream.stop)
    const gateway = await startHttpServer({
      label: 'gateway',
      ...node,
      // Many idle sessions from one address are measured below: lift the per-client cap.
      args: [
        context.kitBin,
        'serve',
        `up=mcp+${upstream.url}`,
        '--eager',
        '--port',
        '0',
        '--max-sessions-per-client',
        '1000',
      ],
    })
    stops.push(gateway.stop)
    const directHttp = await connect({ transport: 'http', url: upstream.url })
    const viaHttp = await connect({ transport: 'http', url: gateway.url })
    stops.push(
      () => directHttp.close(),
      () => viaHttp.close(),
    )
    rows.push(
      ...(await latencyRows(
        'HTTP',
        { session: directHttp, tool: 'echo' },
        { session: viaHttp, tool: 'up__echo' },
        size,
        log,
      )),
    )

    // The same over HTTP with an upstream whose calls take 20 ms, as real work does.
    const working = await startHttpServer({
      label: 'upstream',
      ...node,
      args: [context.kitBin, 'serve', join(context.anchorsDirectory, 'work-registry.js'), '--port', '0'],
    })
    stops.push(working.stop)
    const workingGateway = await startHttpServer({
      label: 'gateway',
      ...node,
      args: [context.kitBin, 'serve', `up=mcp+${working.url}`, '--eager', '--port', '0'],
    })
    stops.push(workingGateway.stop)
    const directWork = await connect({ transport: 'http', url: working.url })
    const viaWork = await connect({ transport: 'http', url: workingGateway.url })
    stops.push(
      () => directWork.close(),
      () => viaWork.close(),
    )
    rows.push(
      ...(await latencyRows(
        'HTTP-20ms',
        { session: directWork, tool: 'echo' },
        { session: viaWork, tool: 'up__echo' },
        { ...size, calls: Math.max(10, Math.round(size.calls / 20)) },
        log,
        'HTTP, upstream calls taking 20 ms',
        'anchors/work-registry.js: 20 ms per call',
      )),
    )

    // Memory per client session: idle 2025 sessions on the gateway.
    const before = readMemoryKib(gateway.pid, 'VmRSS') ?? 0
    await openSessions(gateway.url, size.sessions)
    const after = readMemoryKib(gateway.pid, 'VmRSS') ?? 0
    rows.push(
      makeRow({
        id: 'gateway-memory-session',
        group: 'gateway',
        name: `gateway memory per client session (${size.sessions} idle sessions)`,
        unit: 'KiB',
        kit: [(after - before) / size.sessions],
      }),
    )

    // stdio: `mcp-kit serve --stdio` directly, and behind `mcp-kit serve --stdio <it>`.
    const directStdio = await connect(
      { transport: 'stdio', command: context.node, args: [context.kitBin, 'serve', '--stdio'] },
      { parentEnv: env },
    )
    const viaStdio = await connect(
      {
        transport: 'stdio',
        command: context.node,
        args: [context.kitBin, 'serve', '--stdio', '--eager', `up=${stdioUpstream(context)}`],
      },
      { parentEnv: env, passEnv: ['XDG_CACHE_HOME'] },
    )
    stops.push(
      () => directStdio.close(),
      () => viaStdio.close(),
    )
    rows.push(
      ...(await latencyRows(
        'stdio',
        { session: directStdio, tool: 'echo' },
        { session: viaStdio, tool: 'up__echo' },
        size,
        log,
      )),
    )

    // Memory per upstream: the gateway process (not its upstreams) with 1 and with N+1 upstreams.
    const rss = []
    // The same server N times: a config file leaves out the resources and prompts they share.
    for (const count of [1, size.upstreams + 1]) {
      const config = join(cache, `gateway-${count}.json`)
      const entry = {
        command: context.node,
        args: [context.kitBin, 'serve', '--stdio'],
        resources: [],
        prompts: [],
      }
      const mcpServers = Object.fromEntries(Array.from({ length: count }, (_, index) => [`u${index}`, entry]))
      writeFileSync(config, JSON.stringify({ mcpServers }))
      const server = await startHttpServer({
        label: 'gateway',
        ...node,
        args: [context.kitBin, 'serve', '--config', config, '--eager', '--port', '0'],
      })
      try {
        const client = await connect({ transport: 'http', url: server.url })
        for (let index = 0; index < count; index++) await client.callTool(`u${index}__echo`, { message: 'x' })
        await client.close()
        rss.push(readMemoryKib(server.pid, 'VmRSS') ?? 0)
      } finally {
        await server.stop()
      }
    }
    rows.push(
      makeRow({
        id: 'gateway-memory-upstream',
        group: 'gateway',
        name: `gateway memory per stdio upstream (1 vs ${size.upstreams + 1}, the gateway process only)`,
        unit: 'KiB',
        kit: [((rss[1] ?? 0) - (rss[0] ?? 0)) / size.upstreams],
      }),
    )
    return rows
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {})
    rmSync(cache, { recursive: true, force: true })
  }
}
