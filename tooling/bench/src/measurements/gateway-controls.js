// The gateway-controls rows: what the operator's controls cost a call. Three sides in front of
// one upstream (`mcp-kit serve --port 0`, the demo registry): called directly, through a gateway
// with every control off, and through one with policy rules, a rate limit, Prometheus metrics
// and the audit log on; sequential echo calls over HTTP, rounds interleaved, the same client.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect } from '@mcp-kit/client'
import { startHttpServer } from '../http-server-process.js'
import { makeRow } from '../rows.js'
import { median } from '../statistics.js'
import { cpuTicks } from './modern.js'

// Many short rounds, the sides' order changing each round: on a machine whose load drifts, the
// per-round differences (on − off) are what is compared, not two long stretches far apart.
const sizes = {
  full: { calls: 200, rounds: 40 },
  quick: { calls: 200, rounds: 12 },
  smoke: { calls: 20, rounds: 1 },
}

/** The best peer gateway measured before (issue 36): mcp-hub added this much to a call's p50. */
const peerAddedMs = 1.0

async function p50Of(session, tool, count) {
  const times = []
  for (let index = 0; index < count; index++) {
    const started = performance.now()
    await session.callTool(tool, { message: 'x' })
    times.push(performance.now() - started)
  }
  times.sort((left, right) => left - right)
  return times[Math.floor(times.length / 2)]
}

/** @type {import('../main.js').Measurement} */
export async function measureGatewayControls(context, options, log) {
  const size = sizes[options.mode] ?? sizes.quick
  const dir = mkdtempSync(join(tmpdir(), 'mcp-kit-bench-controls-'))
  const env = { ...context.env, XDG_CACHE_HOME: dir }
  const node = { command: context.node, env }
  const stops = []
  try {
    const controls = join(dir, 'controls.json')
    writeFileSync(
      controls,
      JSON.stringify({
        policy: {
          rules: [
            { deny: { tools: ['up__*delete*'] } },
            {
              deny: { tools: ['up__add'], annotations: { destructiveHint: true } },
              unless: { scopes: ['admin'] },
            },
            { allow: { tools: ['up__echo'] }, arguments: { message: { prefix: '' } } },
          ],
        },
        limits: [{ rate: 1_000_000, per: 'second', by: 'principal+tool' }],
      }),
    )
    const upstream = await startHttpServer({
      label: 'upstream',
      ...node,
      args: [context.kitBin, 'serve', '--port', '0'],
    })
    stops.push(upstream.stop)
    const base = [context.kitBin, 'serve', `up=mcp+${upstream.url}`, '--eager', '--port', '0']
    const off = await startHttpServer({ label: 'gateway', ...node, args: base })
    stops.push(off.stop)
    const on = await startHttpServer({
      label: 'gateway',
      ...node,
      args: [...base, '--policy', controls, '--metrics', '--audit', join(dir, 'audit.ndjson')],
    })
    stops.push(on.stop)
    const sides = {
      direct: {
        session: await connect({ transport: 'http', url: upstream.url }),
        tool: 'echo',
        pid: upstream.pid,
      },
      off: { session: await connect({ transport: 'http', url: off.url }), tool: 'up__echo', pid: off.pid },
      on: { session: await connect({ transport: 'http', url: on.url }), tool: 'up__echo', pid: on.pid },
    }
    for (const side of Object.values(sides)) stops.push(() => side.session.close())
    for (const side of Object.values(sides)) await p50Of(side.session, side.tool, Math.min(200, size.calls))
    const p50 = { direct: [], off: [], on: [] }
    // CPU time of the gateway process per call (user + system, 10 ms ticks): what the controls
    // cost, far less moved than latency by other processes on the shared cores.
    const cpu = { direct: [], off: [], on: [] }
    const orders = [
      ['direct', 'off', 'on'],
      ['on', 'off', 'direct'],
      ['off', 'on', 'direct'],
      ['direct', 'on', 'off'],
    ]
    for (let round = 0; round < size.rounds; round++) {
      for (const name of orders[round % orders.length]) {
        const side = sides[name]
        const before = cpuTicks(side.pid)
        p50[name].push(await p50Of(side.session, side.tool, size.calls))
        cpu[name].push(((cpuTicks(side.pid) - before) * 10) / size.calls)
      }
    }
    const added = (name) => p50[name].map((value, index) => value - (p50.direct[index] ?? value))
    const addedOn = median(added('on'))
    const addedOff = median(added('off'))
    const onOverOff = median(p50.on.map((value, index) => value - (p50.off[index] ?? value)))
    log(
      `  p50: direct ${median(p50.direct).toFixed(3)}, controls off ${median(p50.off).toFixed(3)}, on ${median(p50.on).toFixed(3)} ms (on − off, paired: ${onOverOff.toFixed(3)} ms)`,
    )
    const cpuAdded = median(cpu.on) - median(cpu.off)
    return [
      makeRow({
        id: 'gateway-controls-cpu',
        group: 'gateway-controls',
        name: `gateway CPU per call, policy + limits + metrics + audit on (on − off: ${cpuAdded >= 0 ? '+' : ''}${cpuAdded.toFixed(3)} ms)`,
        unit: 'ms',
        kit: cpu.on,
        anchor: { name: 'the same gateway with every control off', samples: cpu.off },
        note: 'user + system time of the gateway process ÷ calls, sequential echo calls',
      }),
      makeRow({
        id: 'gateway-controls-p50',
        group: 'gateway-controls',
        name: `tools/call p50 through the gateway, policy + limits + metrics + audit on (on − off, paired per round: ${onOverOff >= 0 ? '+' : ''}${onOverOff.toFixed(3)} ms)`,
        unit: 'ms',
        kit: p50.on,
        anchor: { name: 'the same gateway with every control off', samples: p50.off },
        note: 'sequential echo calls over HTTP (2026-07-28), demo registry upstream; target: on − off ≤ 0.3 ms',
      }),
      makeRow({
        id: 'gateway-controls-added',
        group: 'gateway-controls',
        name: `gateway added latency p50, controls on (+${addedOn.toFixed(2)} ms) against off (+${addedOff.toFixed(2)} ms); mcp-hub +${peerAddedMs.toFixed(1)} ms`,
        unit: 'ms',
        kit: added('on'),
        anchor: { name: 'added with every control off', samples: added('off') },
        note: `added = through the gateway − direct, per round; the best peer gateway measured before (mcp-hub) added ${peerAddedMs.toFixed(1)} ms: controls on ÷ mcp-hub = ${(addedOn / peerAddedMs).toFixed(2)}`,
      }),
    ]
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {})
    rmSync(dir, { recursive: true, force: true })
  }
}
