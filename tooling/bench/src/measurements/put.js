// Row 4 and the scaling rows: `mcp-kit put` calling echo once per NDJSON record, against the raw
// SDK client calling the same tool in a sequential loop over the same records and server.

import { makeRow } from '../rows.js'
import { inspectTargets } from './inspect.js'
import { echoRecords, expectLines, timeCommands } from './process-timing.js'

/** `mcp-kit put '<reference>?tool=echo' --concurrency 16`: the put and scaling rows' command. */
function putArgs(context, target) {
  const separator = target.reference.includes('?') ? '&' : '?'
  return [context.kitBin, 'put', `${target.reference}${separator}tool=echo`, '--concurrency', '16']
}

/** @type {import('../main.js').Measurement} */
export async function measurePut(context, options, log) {
  const targets = inspectTargets(context)
  const input = echoRecords(options.putRecords)
  const rows = []
  for (const name of /** @type {const} */ (['demo', 'basic'])) {
    const target = targets[name]
    const samples = await timeCommands(
      context,
      [
        {
          key: 'kit',
          label: `mcp-kit put on ${target.label}`,
          command: context.node,
          args: putArgs(context, target),
          input,
          check: expectLines(options.putRecords),
        },
        {
          key: 'sdk',
          label: `raw SDK call loop on ${target.label}`,
          command: context.node,
          args: [context.anchors.sdkCallLoop, 'echo', ...target.server],
          input,
          check: expectLines(options.putRecords),
        },
      ],
      { runs: options.runs, warmup: options.warmup, log },
    )
    rows.push(
      makeRow({
        id: `put-${name}`,
        group: 'put',
        name: `put ${options.putRecords.toLocaleString('en-US')} echo calls, ${target.label}`,
        unit: 'ms',
        kit: samples.kit.wallMs,
        anchor: { name: 'raw SDK sequential loop', samples: samples.sdk.wallMs },
        target: { op: '<=', value: 0.6 },
      }),
    )
  }
  return rows
}

/** @type {import('../main.js').Measurement} */
export async function measureScaling(context, options, log) {
  const target = inspectTargets(context).demo
  const samples = await timeCommands(
    context,
    options.scalingSizes.map((size) => ({
      key: String(size),
      label: `mcp-kit put ${size} records`,
      command: context.node,
      args: putArgs(context, target),
      input: echoRecords(size),
      check: expectLines(size),
    })),
    { runs: options.scalingRuns, warmup: false, log },
  )
  const [smallest] = options.scalingSizes
  const medianOf = (values) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)]
  const baseMs = medianOf(samples[String(smallest)].wallMs)
  return options.scalingSizes.map((size, index) => {
    const medianMs = medianOf(samples[String(size)].wallMs)
    const microsecondsPerRecord = (medianMs * 1000) / size
    // The marginal cost (extra time per extra record since the previous size) leaves start-up out.
    const previous = options.scalingSizes[index - 1]
    const marginal =
      previous === undefined
        ? ''
        : `; ${(((medianMs - medianOf(samples[String(previous)].wallMs)) * 1000) / (size - previous)).toFixed(0)} µs per extra record since ${previous.toLocaleString('en-US')}`
    return {
      ...makeRow({
        id: `scaling-${size}`,
        group: 'scaling',
        name: `put ${size.toLocaleString('en-US')} records, @demo`,
        unit: 'ms',
        kit: samples[String(size)].wallMs,
      }),
      perRecordMicroseconds: microsecondsPerRecord,
      growth: medianMs / baseMs,
      note: `${microsecondsPerRecord.toFixed(0)} µs/record overall; ×${(medianMs / baseMs).toFixed(2)} the time of ${smallest.toLocaleString('en-US')} records${marginal}`,
    }
  })
}
