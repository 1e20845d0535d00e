// The OpenAPI rows: what `mcp-kit serve --openapi` adds to a REST call against making the same
// HTTP request directly with undici — p50 and p99 of sequential calls to one operation
// (GET /pets/{petId} of the Fastify Pets API in @mcp-kit/fixtures, in a process of its own),
// rounds interleaved. The MCP side is a 2026-07-28 client over Streamable HTTP to
// `mcp-kit serve --openapi <document URL> --port 0`, which sends the same request with undici.
// A third side, an echo call to `mcp-kit serve` (the demo registry) with the same client, shows
// how much of the difference is the MCP round trip itself.

import { fileURLToPath } from 'node:url'
import { connect } from '@mcp-kit/client'
import { request } from 'undici'
import { startHttpServer } from '../http-server-process.js'
import { makeRow } from '../rows.js'
import { median } from '../statistics.js'

const sizes = {
  full: { calls: 2000, rounds: 5 },
  quick: { calls: 500, rounds: 2 },
  smoke: { calls: 20, rounds: 1 },
}

/** @param {number[]} values @param {number} fraction */
function percentile(values, fraction) {
  const sorted = [...values].sort((left, right) => left - right)
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]
}

/** The Pets API in its own process; resolves with its URL once it prints it. */
function startApi(context) {
  return startHttpServer({
    label: 'the Pets API',
    command: context.node,
    args: [fileURLToPath(import.meta.resolve('@mcp-kit/fixtures/rest-api')), '--port', '0'],
    env: context.env,
    path: '',
  })
}

/** Sequential calls of `call`; each call's time in ms. */
async function time(call, count) {
  const times = []
  for (let index = 0; index < count; index++) {
    const started = performance.now()
    await call()
    times.push(performance.now() - started)
  }
  return times
}

/** @type {import('../main.js').Measurement} */
export async function measureOpenApi(context, options, log) {
  const size = sizes[options.mode] ?? sizes.quick
  const stops = []
  try {
    const api = await startApi(context)
    stops.push(api.stop)
    const created = await request(`${api.url}/pets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', species: 'dog', age: 3 }),
    })
    const pet = /** @type {{ id: number }} */ (await created.body.json())
    const server = await startHttpServer({
      label: 'serve --openapi',
      command: context.node,
      args: [context.kitBin, 'serve', '--openapi', `${api.url}/openapi.json`, '--port', '0'],
      env: context.env,
    })
    stops.push(server.stop)
    const session = await connect({ transport: 'http', url: server.url })
    stops.push(() => session.close())
    const demo = await startHttpServer({
      label: 'serve',
      command: context.node,
      args: [context.kitBin, 'serve', '--port', '0'],
      env: context.env,
    })
    stops.push(demo.stop)
    const demoSession = await connect({ transport: 'http', url: demo.url })
    stops.push(() => demoSession.close())

    const expected = JSON.stringify({ id: pet.id, name: 'Rex', species: 'dog', age: 3 })
    const direct = async () => {
      const answer = await request(`${api.url}/pets/${pet.id}`, { headers: { accept: 'application/json' } })
      const body = await answer.body.json()
      if (answer.statusCode !== 200 || JSON.stringify(body) !== expected) throw new Error('unexpected answer')
    }
    const viaMcp = async () => {
      const result = await session.callTool('getPet', { petId: pet.id })
      if (result.isError || JSON.stringify(result.structuredContent) !== expected) {
        throw new Error(`unexpected result: ${JSON.stringify(result).slice(0, 300)}`)
      }
    }
    const echo = async () => {
      const result = await demoSession.callTool('echo', { message: 'x' })
      if (result.isError) throw new Error('echo failed')
    }
    const sides = { direct, mcp: viaMcp, echo }
    for (const call of Object.values(sides)) await time(call, Math.min(200, size.calls))
    const p50 = { direct: [], mcp: [], echo: [] }
    const p99 = { direct: [], mcp: [], echo: [] }
    for (let round = 0; round < size.rounds; round++) {
      const order = round % 2 === 0 ? ['direct', 'mcp', 'echo'] : ['echo', 'mcp', 'direct']
      for (const side of order) {
        const times = await time(sides[side], size.calls)
        p50[side].push(percentile(times, 0.5))
        p99[side].push(percentile(times, 0.99))
      }
    }
    const added = median(p50.mcp) - median(p50.direct)
    log(
      `  GET /pets/{petId}: p50 ${median(p50.direct).toFixed(3)} → ${median(p50.mcp).toFixed(3)} ms (+${added.toFixed(3)} ms)`,
    )
    const anchorName = 'the same request with undici'
    return [
      makeRow({
        id: 'openapi-p50',
        group: 'openapi',
        name: `REST call p50 as an MCP tool (serve --openapi; added: ${added.toFixed(2)} ms)`,
        unit: 'ms',
        kit: p50.mcp,
        anchor: { name: anchorName, samples: p50.direct },
        note: 'sequential getPet calls (GET /pets/{petId} of the Fastify Pets API), a 2026 client over HTTP',
      }),
      makeRow({
        id: 'openapi-p99',
        group: 'openapi',
        name: 'REST call p99 as an MCP tool (serve --openapi)',
        unit: 'ms',
        kit: p99.mcp,
        anchor: { name: anchorName, samples: p99.direct },
      }),
      makeRow({
        id: 'openapi-vs-echo-p50',
        group: 'openapi',
        name: 'REST call p50 as an MCP tool, against an MCP echo call',
        unit: 'ms',
        kit: p50.mcp,
        anchor: { name: 'echo on mcp-kit serve (demo), same client', samples: p50.echo },
        note: 'what the tool adds over the MCP round trip: the request to the API and the mapping of its answer',
      }),
    ]
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {})
  }
}
