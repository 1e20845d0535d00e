// Row 1: how long `mcp-kit --version` takes next to the cheapest possible Node program. The
// difference is what the CLI's own start-up (bin shim, module loading) costs a user.

import { makeRow } from '../rows.js'
import { timeCommands } from './process-timing.js'

/** @type {import('../main.js').Measurement} */
export async function measureStart(context, options, log) {
  // Each run is ~50 ms, so twice the usual count costs little and steadies the median.
  const runs = options.runs * 2
  const samples = await timeCommands(
    context,
    [
      {
        key: 'kit',
        label: 'mcp-kit --version',
        command: context.node,
        args: [context.kitBin, '--version'],
        check: (stdout) => {
          if (stdout.toString().trim() !== context.kitVersion) throw new Error(`--version printed ${stdout}`)
        },
      },
      { key: 'node', label: 'node -e 0', command: context.node, args: ['-e', '0'] },
    ],
    { runs, warmup: options.warmup, log },
  )
  return [
    makeRow({
      id: 'start',
      group: 'start',
      name: 'CLI start: mcp-kit --version',
      unit: 'ms',
      kit: samples.kit.wallMs,
      anchor: { name: 'node -e 0', samples: samples.node.wallMs },
      target: { op: '<=', value: 2.0 },
    }),
  ]
}
