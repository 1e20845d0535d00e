// Rows 2 and 3: `mcp-kit inspect` against what people would otherwise run: a minimal script on
// the raw SDK doing the same list calls (same server command for both), and for the reference
// server-everything also the official Inspector CLI's `--method tools/list`.

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
    basic: {
      label: 'basic.js (no-SDK fixture)',
      reference: `mcp+node://${context.servers.basic}`,
      server: [context.node, context.servers.basic],
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

/** @type {import('../main.js').Measurement} */
export async function measureInspectEverything(context, options, log) {
  const target = inspectTargets(context).everything
  const commands = inspectCommands(context, target)
  const samples = await timeCommands(context, [commands.kit, commands.inspector, commands.sdk], {
    runs: options.runs,
    warmup: options.warmup,
    log,
  })
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
      name: 'inspect server-everything',
      unit: 'ms',
      kit: samples.kit.wallMs,
      anchor: { name: 'raw SDK script', samples: samples.sdk.wallMs },
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
