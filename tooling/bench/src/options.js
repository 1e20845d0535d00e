// Benchmark settings from flags and MCP_KIT_BENCH_* variables. Three presets: the full run the
// README quotes, --quick for a fast look while working, --smoke for the test that checks the
// harness itself (one run of everything at tiny sizes).

import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defaultRedisUrl } from './redis.js'

const packageDirectory = join(dirname(fileURLToPath(import.meta.url)), '..')

/** Measurement groups, in table order; `--only` takes a comma-separated subset. */
export const groups = [
  'start',
  'inspect',
  'everything',
  'inspect-2026',
  'put',
  'http',
  'http-2026',
  'memory',
  'memory-2026',
  'scaling',
  'gateway',
  'gateway-controls',
  'openapi',
  'openapi-large',
  'warm',
  'ui',
  'store',
  'cluster',
  'soak',
]
/** What a run without `--only` measures: the soak takes minutes on its own, so it runs when named. */
export const defaultGroups = groups.filter((group) => group !== 'soak')

/**
 * @typedef {object} BenchOptions
 * @property {'full' | 'quick' | 'smoke'} mode
 * @property {number} runs              timed runs per side for process rows
 * @property {boolean} warmup           one untimed run per side first
 * @property {number} memoryRuns        runs per side for peak-RSS rows
 * @property {number} putRecords        records for the put rows
 * @property {number[]} scalingSizes    record counts for the scaling rows
 * @property {number} scalingRuns
 * @property {number} httpRounds        fresh-server rounds per HTTP server
 * @property {number} httpSeconds       load duration per throughput round
 * @property {number} httpWarmupSeconds load before each measured round
 * @property {number} httpConnections
 * @property {number[]} latencyConnections
 * @property {number} latencySeconds
 * @property {number} latencyRounds     fresh-server rounds for the latency rows
 * @property {number} sessions          idle sessions opened for the memory-per-session row
 * @property {number} sessionRounds     fresh-server rounds for the memory-per-session row
 * @property {number} inFlightRequests  2026 requests held in flight at once for the memory-2026 row
 * @property {number} inFlightHoldMs    how long each of them waits in the server
 * @property {number} inFlightRounds    fresh-server rounds for the memory-2026 row
 * @property {number} soakMinutes       how long the soak's load runs after its warm-up
 * @property {number} soakWarmupSeconds load before the first memory sample
 * @property {number} soakIntervalSeconds  between memory samples
 * @property {number} soakRate          mixed operations per second (each 1–5 requests)
 * @property {number} soakClients       concurrent load clients
 * @property {string} redisUrl          the Redis of the store rows
 * @property {string | undefined} clusterUrl  a Redis Cluster for the cluster rows (default: the bench starts one)
 * @property {number} storeRoundTrips   task round trips, one at a time, per round of the store rows
 * @property {number} storeTasks        finished tasks kept for the store memory row
 * @property {number} storeMemoryRounds fresh-server rounds for the store memory row
 * @property {number} storeCountCalls   operations of each kind while Redis commands are counted
 * @property {string[]} only            groups to run
 * @property {string} outputDirectory   where latest.json and latest.md go
 * @property {string | undefined} kitBin  mcp-kit's bin.js (default: the workspace build)
 * @property {string | undefined} label   names the build under test when git cannot (a copy of a commit)
 */

const presets = {
  full: {
    runs: 10,
    warmup: true,
    memoryRuns: 5,
    putRecords: 5000,
    scalingSizes: [1000, 10_000, 50_000],
    scalingRuns: 3,
    httpRounds: 5,
    httpSeconds: 5,
    httpWarmupSeconds: 1,
    httpConnections: 10,
    latencyConnections: [1, 10, 50],
    latencySeconds: 3,
    latencyRounds: 3,
    sessions: 1000,
    sessionRounds: 3,
    inFlightRequests: 1000,
    inFlightHoldMs: 10_000,
    inFlightRounds: 3,
    soakMinutes: 10,
    soakWarmupSeconds: 60,
    soakIntervalSeconds: 5,
    storeRoundTrips: 500,
    storeTasks: 10_000,
    storeMemoryRounds: 3,
    storeCountCalls: 200,
  },
  quick: {
    runs: 3,
    warmup: true,
    memoryRuns: 1,
    putRecords: 5000,
    scalingSizes: [1000, 5000, 20_000],
    scalingRuns: 1,
    httpRounds: 1,
    httpSeconds: 2,
    httpWarmupSeconds: 0.5,
    httpConnections: 10,
    latencyConnections: [1, 10, 50],
    latencySeconds: 1,
    latencyRounds: 1,
    sessions: 1000,
    sessionRounds: 1,
    inFlightRequests: 500,
    inFlightHoldMs: 6000,
    inFlightRounds: 1,
    soakMinutes: 1,
    soakWarmupSeconds: 15,
    soakIntervalSeconds: 2,
    storeRoundTrips: 200,
    storeTasks: 10_000,
    storeMemoryRounds: 1,
    storeCountCalls: 100,
  },
  smoke: {
    runs: 1,
    warmup: false,
    memoryRuns: 1,
    putRecords: 20,
    scalingSizes: [10, 50, 100],
    scalingRuns: 1,
    httpRounds: 1,
    httpSeconds: 0.3,
    httpWarmupSeconds: 0,
    httpConnections: 2,
    latencyConnections: [1, 2],
    latencySeconds: 0.3,
    latencyRounds: 1,
    sessions: 20,
    sessionRounds: 1,
    inFlightRequests: 50,
    inFlightHoldMs: 1500,
    inFlightRounds: 1,
    soakMinutes: 0.1,
    soakWarmupSeconds: 1,
    soakIntervalSeconds: 0.5,
    storeRoundTrips: 20,
    storeTasks: 200,
    storeMemoryRounds: 1,
    storeCountCalls: 20,
  },
}

function numberList(text) {
  return text.split(',').map((part) => Number(part.trim()))
}

/**
 * @param {string[]} argv  flags after `node src/main.js`
 * @param {NodeJS.ProcessEnv} env
 * @returns {BenchOptions}
 */
export function parseOptions(argv, env = process.env) {
  const flags = new Map()
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]
    // `pnpm bench -- --only x`: pnpm 10 passes the `--` through.
    if (argument === '--') continue
    if (!argument.startsWith('--')) throw new Error(`unexpected argument ${argument}`)
    const [name, inlineValue] = argument.slice(2).split(/=(.*)/s, 2)
    if (['quick', 'smoke', 'no-warmup', 'help'].includes(name)) flags.set(name, 'true')
    else {
      const value = inlineValue ?? argv[++index]
      if (value === undefined) throw new Error(`--${name} needs a value`)
      flags.set(name, value)
    }
  }
  if (flags.has('help')) {
    process.stdout.write(
      [
        'Usage: pnpm bench [-- --quick | --smoke] [--runs N] [--only group,…] [--output DIR]',
        '                  [--mcp-kit path/to/bin.js --label "what that build is"]',
        `Groups: ${groups.join(', ')}`,
        'Also: --memory-runs N, --put-records N, --scaling-sizes a,b,c, --http-rounds N, --http-seconds S,',
        '      --sessions N, --in-flight-requests N, --in-flight-hold MS, --in-flight-rounds N, --no-warmup;',
        '      each flag also reads MCP_KIT_BENCH_<FLAG> (e.g. MCP_KIT_BENCH_RUNS=20).',
        `Without --only every group but soak runs. --only soak: 10 minutes of mixed load on serve with its`,
        '      memory sampled; --minutes N (default 10), --soak-warmup S, --soak-interval S, --soak-rate N,',
        '      --soak-clients N.',
        'store: --redis-url URL (default $REDIS_URL, else redis://127.0.0.1:6379), --store-round-trips N,',
        '      --store-tasks N (finished tasks for the memory row), --store-memory-rounds N, --store-count-calls N.',
        'cluster: --cluster-url redis-cluster://host:port (default: a 3+3 cluster of its own from redis-server);',
        '      its anchor is a redis-server of its own.',
        '',
      ].join('\n'),
    )
    process.exit(0)
  }
  const setting = (name) => flags.get(name) ?? env[`MCP_KIT_BENCH_${name.toUpperCase().replaceAll('-', '_')}`]
  const isOn = (name) => ['1', 'true', 'yes'].includes(String(setting(name)).toLowerCase())
  const mode = isOn('smoke') ? 'smoke' : isOn('quick') ? 'quick' : 'full'
  const preset = presets[mode]
  const numberSetting = (name, fallback) => (setting(name) === undefined ? fallback : Number(setting(name)))
  const only = setting('only')
    ? setting('only')
        .split(',')
        .map((group) => group.trim())
    : defaultGroups
  for (const group of only) if (!groups.includes(group)) throw new Error(`unknown group ${group}`)
  return {
    mode,
    runs: numberSetting('runs', preset.runs),
    warmup: isOn('no-warmup') ? false : preset.warmup,
    memoryRuns: numberSetting('memory-runs', preset.memoryRuns),
    putRecords: numberSetting('put-records', preset.putRecords),
    scalingSizes: setting('scaling-sizes') ? numberList(setting('scaling-sizes')) : preset.scalingSizes,
    scalingRuns: numberSetting('scaling-runs', preset.scalingRuns),
    httpRounds: numberSetting('http-rounds', preset.httpRounds),
    httpSeconds: numberSetting('http-seconds', preset.httpSeconds),
    httpWarmupSeconds: numberSetting('http-warmup-seconds', preset.httpWarmupSeconds),
    httpConnections: numberSetting('http-connections', preset.httpConnections),
    latencyConnections: setting('latency-connections')
      ? numberList(setting('latency-connections'))
      : preset.latencyConnections,
    latencySeconds: numberSetting('latency-seconds', preset.latencySeconds),
    latencyRounds: numberSetting('latency-rounds', preset.latencyRounds),
    sessions: numberSetting('sessions', preset.sessions),
    sessionRounds: numberSetting('session-rounds', preset.sessionRounds),
    inFlightRequests: numberSetting('in-flight-requests', preset.inFlightRequests),
    inFlightHoldMs: numberSetting('in-flight-hold', preset.inFlightHoldMs),
    inFlightRounds: numberSetting('in-flight-rounds', preset.inFlightRounds),
    soakMinutes: numberSetting('minutes', preset.soakMinutes),
    soakWarmupSeconds: numberSetting('soak-warmup', preset.soakWarmupSeconds),
    soakIntervalSeconds: numberSetting('soak-interval', preset.soakIntervalSeconds),
    soakRate: numberSetting('soak-rate', 300),
    soakClients: numberSetting('soak-clients', 8),
    redisUrl: setting('redis-url') ?? env.REDIS_URL ?? defaultRedisUrl,
    clusterUrl: setting('cluster-url'),
    storeRoundTrips: numberSetting('store-round-trips', preset.storeRoundTrips),
    storeTasks: numberSetting('store-tasks', preset.storeTasks),
    storeMemoryRounds: numberSetting('store-memory-rounds', preset.storeMemoryRounds),
    storeCountCalls: numberSetting('store-count-calls', preset.storeCountCalls),
    only,
    outputDirectory: resolve(setting('output') ?? join(packageDirectory, 'bench-results')),
    kitBin: setting('mcp-kit') ? resolve(setting('mcp-kit')) : undefined,
    label: setting('label'),
  }
}
