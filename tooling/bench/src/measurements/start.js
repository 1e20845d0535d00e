// Row 1: how long `mcp-kit --version` takes next to the cheapest possible Node program. The
// difference is what the CLI's own start-up (bin shim, module loading) costs a user.
// Row 2: one shell completion (a profile's tool names, what Tab after `@profile/` asks for) next
// to `mcp-kit --help`: completion runs on every Tab and must stay in the class of --help.

import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { makeRow } from '../rows.js'
import { timeCommands } from './process-timing.js'

/** A profile root with one saved profile (two tools with schemas), as `profile create` leaves it. */
function profileHome(context) {
  const root = join(context.env.HOME ?? '.', 'bench-profiles')
  const profile = join(root, 'profiles', 'calc')
  mkdirSync(profile, { recursive: true })
  writeFileSync(join(profile, '_meta.json'), JSON.stringify({ command: 'node', args: ['server.js'] }))
  for (const [name, properties] of [
    ['add', { a: { type: 'number' }, b: { type: 'number' } }],
    ['echo', { message: { type: 'string' } }],
  ]) {
    writeFileSync(
      join(profile, `${name}.json`),
      JSON.stringify({ inputSchema: { type: 'object', properties } }),
    )
  }
  return root
}

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
  const completionEnv = { ...context.env, MCP_KIT_HOME: profileHome(context) }
  const completion = await timeCommands(
    context,
    [
      {
        key: 'kit',
        label: 'mcp-kit --get-yargs-completions mcp-kit cat @calc/',
        command: context.node,
        args: [context.kitBin, '--get-yargs-completions', 'mcp-kit', 'cat', '@calc/'],
        env: completionEnv,
        check: (stdout) => {
          if (stdout.toString() !== '@calc/add\n@calc/echo\n') throw new Error(`completion printed ${stdout}`)
        },
      },
      {
        key: 'help',
        label: 'mcp-kit --help',
        command: context.node,
        args: [context.kitBin, '--help'],
        env: completionEnv,
      },
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
    makeRow({
      id: 'completion',
      group: 'start',
      name: "shell completion: a profile's tool names",
      unit: 'ms',
      kit: completion.kit.wallMs,
      anchor: { name: 'mcp-kit --help', samples: completion.help.wallMs },
      target: { op: '<=', value: 1.2 },
    }),
  ]
}
