// Rows 2 and 3: `mcp-kit inspect` against what people would otherwise run: a minimal script on
// the raw SDK (v1, `@modelcontextprotocol/sdk`) doing the same list calls (same server command for
// both), and for the reference server-everything also the official Inspector CLI's
// `--method tools/list`.
//
// server-everything speaks 2025-11-25 only. mcp-kit (protocol `auto`) asks `server/discover`
// first, learns "2025" from the answer, initializes on the same process and remembers the verdict
// per launch command in its cache (MCP_KIT_CACHE_DIR), so a user's second run goes straight to
// `initialize`. The row with the target is that steady state; the first run (an empty cache for
// every run, so every run probes) is a row of its own.

import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { makeRow } from '../rows.js'
import { expectToolsJson, timeCommands } from './process-timing.js'

/**
 * The servers inspected, each with the reference mcp-kit gets and the command line the anchors
 * launch (the same process mcp-kit ends up starting).
 * @param {import('../context.js').Context} context
 */
export function inspectTargets(context) {
  return {
    demo: {
      label: '@demo (mcp-kit serve --stdio)',
      reference: '@demo',
      server: [context.node, context.kitBin, 'serve', '--stdio'],
    },
    // The fixture answers unknown methods as the spec says here (its default is a sloppy `{}`,
    // which the SDK's clients refuse): the rows compare speed, not tolerance.
    basic: {
      label: 'basic.js (no-SDK fixture)',
      reference: `mcp+node://${context.servers.basic}?arg=--unknown=method-not-found`,
      server: [context.node, context.servers.basic, '--unknown=method-not-found'],
    },
    everything: {
      label: 'server-everything',
      reference: `mcp+node://${context.servers.everything}`,
      server: [context.node, context.servers.everything],
    },
  }
}

/**
 * @param {import('../context.js').Context} context
 * @param {ReturnType<typeof inspectTargets>[keyof ReturnType<typeof inspectTargets>]} target
 */
export function inspectCommands(context, target) {
  return {
    kit: {
      key: 'kit',
      label: `mcp-kit inspect ${target.label}`,
      command: context.node,
      args: [context.kitBin, 'inspect', target.reference, '--format', 'json'],
      check: expectToolsJson,
    },
    sdk: {
      key: 'sdk',
      label: `raw SDK script on ${target.label}`,
      command: context.node,
      args: [context.anchors.sdkInspect, ...target.server],
      check: expectToolsJson,
    },
    inspector: {
      key: 'inspector',
      label: `Inspector CLI on ${target.label}`,
      command: context.node22,
      args: [context.inspectorCli, '--cli', ...target.server, '--method', 'tools/list'],
      check: expectToolsJson,
    },
  }
}

/** @type {import('../main.js').Measurement} */
export async function measureInspectLocal(context, options, log) {
  const targets = inspectTargets(context)
  const rows = []
  for (const name of /** @type {const} */ (['demo', 'basic'])) {
    const commands = inspectCommands(context, targets[name])
    const samples = await timeCommands(context, [commands.kit, commands.sdk], {
      runs: options.runs,
      warmup: options.warmup,
      log,
    })
    rows.push(
      makeRow({
        id: `inspect-${name}`,
        group: 'inspect',
        name: `inspect ${targets[name].label}`,
        unit: 'ms',
        kit: samples.kit.wallMs,
        anchor: { name: 'raw SDK script', samples: samples.sdk.wallMs },
        target: { op: '<=', value: 1.15 },
      }),
    )
  }
  return rows
}

/** The era verdicts in a cache directory (eras.json), or {} when there is none. */
function readVerdicts(directory) {
  try {
    return JSON.parse(readFileSync(join(directory, 'eras.json'), 'utf8'))
  } catch {
    return {}
  }
}

/** @param {string} directory */
function remembersLegacy(directory) {
  return Object.values(readVerdicts(directory)).some((entry) => entry?.era === 'legacy')
}

/** @type {import('../main.js').Measurement} */
export async function measureInspectEverything(context, options, log) {
  const target = inspectTargets(context).everything
  const commands = inspectCommands(context, target)
  const sharedCache = /** @type {string} */ (context.env.MCP_KIT_CACHE_DIR)
  // Steady state: the verdict is in the shared cache before the first timed run (the warm-up
  // puts it there; without warm-up, one untimed run does).
  if (!options.warmup) await timeCommands(context, [commands.kit], { runs: 1, warmup: false, log })
  // First run: every run gets an empty cache of its own, so every run probes.
  const firstRunCaches = []
  let firstRuns = 0
  const kitFirstRun = {
    ...commands.kit,
    key: 'kitFirstRun',
    label: `${commands.kit.label} (empty verdict cache)`,
    env: () => {
      const directory = join(context.home, `first-run-cache-${++firstRuns}`)
      mkdirSync(directory)
      firstRunCaches.push(directory)
      return { ...context.env, MCP_KIT_CACHE_DIR: directory }
    },
  }
  let samples
  try {
    samples = await timeCommands(context, [commands.kit, kitFirstRun, commands.inspector, commands.sdk], {
      runs: options.runs,
      warmup: options.warmup,
      log,
    })
    // Each first run found no verdict, probed, and wrote "2025" down; the steady-state runs had it.
    const unprobed = firstRunCaches.filter((directory) => !remembersLegacy(directory))
    if (unprobed.length > 0) throw new Error(`${unprobed.length} first runs left no 2025 verdict behind`)
    if (!remembersLegacy(sharedCache)) throw new Error('the steady-state runs had no remembered verdict')
  } finally {
    for (const directory of firstRunCaches) rmSync(directory, { recursive: true, force: true })
  }
  return [
    makeRow({
      id: 'everything-inspector',
      group: 'everything',
      name: 'inspect server-everything',
      unit: 'ms',
      kit: samples.kit.wallMs,
      anchor: { name: 'Inspector CLI tools/list', samples: samples.inspector.wallMs },
      target: { op: '<=', value: 0.7 },
    }),
    makeRow({
      id: 'everything-sdk',
      group: 'everything',
      name: 'inspect server-everything (2025-11-25, stdio), verdict remembered',
      unit: 'ms',
      kit: samples.kit.wallMs,
      anchor: { name: 'raw SDK v1 script', samples: samples.sdk.wallMs },
      target: { op: '<=', value: 1.05 },
      note: "a user's second run: the 2025 verdict is in the cache, no server/discover probe",
    }),
    makeRow({
      id: 'everything-sdk-first-run',
      group: 'everything',
      name: 'inspect server-everything (2025-11-25, stdio), first run',
      unit: 'ms',
      kit: samples.kitFirstRun.wallMs,
      anchor: { name: 'raw SDK v1 script', samples: samples.sdk.wallMs },
      note: 'empty verdict cache: server/discover probe, then initialize on the same server process',
    }),
    makeRow({
      id: 'everything-sdk-vs-inspector',
      group: 'everything',
      name: 'raw SDK script on server-everything (in the mcp-kit column)',
      unit: 'ms',
      kit: samples.sdk.wallMs,
      anchor: { name: 'Inspector CLI tools/list', samples: samples.inspector.wallMs },
      note: 'a reference, not mcp-kit: issue 3 quotes about 0.74 for this ratio',
    }),
  ]
}
