// Row 6, the client side: peak resident memory of `mcp-kit inspect` against the raw SDK script on
// the same server. Taken in runs of their own because polling /proc would perturb the timing rows.

import { makeRow } from '../rows.js'
import { inspectCommands, inspectTargets } from './inspect.js'
import { timeCommands } from './process-timing.js'

/** @type {import('../main.js').Measurement} */
export async function measureInspectMemory(context, options, log) {
  const targets = inspectTargets(context)
  const rows = []
  for (const name of /** @type {const} */ (['demo', 'everything'])) {
    const commands = inspectCommands(context, targets[name])
    const samples = await timeCommands(context, [commands.kit, commands.sdk], {
      runs: options.memoryRuns,
      warmup: false,
      trackPeakRss: true,
      log,
    })
    rows.push(
      makeRow({
        id: `memory-inspect-${name}`,
        group: 'memory',
        name: `peak RSS of inspect ${targets[name].label} (client process)`,
        unit: 'MiB',
        kit: samples.kit.peakRssMib,
        anchor: { name: 'raw SDK script', samples: samples.sdk.peakRssMib },
      }),
    )
  }
  return rows
}
