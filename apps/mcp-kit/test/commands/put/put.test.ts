// @module-tag integration
// put: one call per NDJSON record, in order, nothing dropped or duplicated; one call at a time
// unless --concurrency or the profile says the server takes more.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixtureServers, npmServers } from '@mcp-kit/fixtures'
import { afterAll, describe, expect, it } from 'vitest'
import { pidFile, records, runCli } from '../../helpers/helpers.js'

const basic = `mcp+node://${fixtureServers.basic}`
const scratch = mkdtempSync(join(tmpdir(), 'mcp-kit-put-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('put', () => {
  it('keeps output order = input order with calls of different durations in flight', async () => {
    const delays = [300, 10, 200, 0, 150, 50, 250, 5, 100, 20]
    const input = delays.map((ms) => JSON.stringify({ ms })).join('\n')
    const result = await runCli(['put', `${basic}?tool=slow`, '--concurrency', '5'], { input })
    expect(result.code).toBe(0)
    expect(records(result.stdout)).toEqual(delays.map((ms) => ({ type: 'text', text: `slept ${ms}` })))
  })

  it('one output record per input record: bad lines and failed calls become error records with their line number', async () => {
    const input = ['{"message":"a"}', '', 'not json', '[1,2]', '{"message":7}', '{"message":"b"}'].join('\n')
    const result = await runCli(['put', `${basic}?tool=echo`], { input })
    expect(result.code).toBe(2)
    expect(records(result.stdout)).toEqual([
      { type: 'text', text: 'a' },
      {
        error: { code: 'invalid_arguments', message: expect.stringMatching(/^line 3: not valid JSON: /) },
        input: 3,
      },
      {
        error: { code: 'invalid_arguments', message: 'line 4: expected a JSON object of tool arguments' },
        input: 4,
      },
      {
        error: {
          code: 'invalid_arguments',
          message: 'line 5: message: must be a string (got 7)',
          details: expect.any(Object),
        },
        input: 5,
      },
      { type: 'text', text: 'b' },
    ])
    expect(result.stderr).toBe('mcp-kit: 3 of 5 calls failed\n')
  })

  it('query and key=value arguments are shared; each record overrides them', async () => {
    const input = ['{"b": 1}', '{"a": 10, "b": 2}'].join('\n')
    const result = await runCli(['put', `${basic}?tool=add&a=100`], { input })
    expect(records(result.stdout)).toEqual([{ sum: 101 }, { sum: 12 }])
  })

  it('--fail-fast stops at the first failure', async () => {
    const input = ['{}', '{}', '{}'].join('\n')
    const result = await runCli(['put', `${basic}?tool=fail`, '--fail-fast', '--concurrency', '1'], { input })
    expect(result.code).toBe(1)
    expect(records(result.stdout)).toEqual([
      { error: { code: 'tool_error', message: 'this tool always fails' }, input: 1 },
    ])
  })

  it('when the server dies midway, every remaining record gets an error record and no process is left', async () => {
    const pids = pidFile()
    try {
      const lines = Array.from({ length: 20 }, (_, index) =>
        index === 5 ? '{"__crash": true}' : JSON.stringify({ message: `m${index}` }),
      )
      const input = lines.join('\n')
      // The crash fixture's echo exits the server when a record says {"__crash": true}.
      const result = await runCli(
        [
          'put',
          `mcp+node://${fixtureServers.crash}?tool=echo`,
          '--concurrency',
          '2',
          '--env',
          pids.flag,
          '--no-validate',
        ],
        { input },
      )
      const output = records(result.stdout) as Array<{
        error?: { code: string }
        input?: number
        type?: string
      }>
      expect(output).toHaveLength(20)
      expect(output.slice(0, 5)).toEqual(
        Array.from({ length: 5 }, (_, index) => ({ type: 'text', text: `m${index}` })),
      )
      expect(output[5]).toMatchObject({ error: { code: 'server_exited' }, input: 6 })
      // Record 7 was in flight beside record 6 (concurrency 2): it may have made it or not.
      expect([
        { type: 'text', text: 'm6' },
        expect.objectContaining({ error: expect.objectContaining({ code: 'server_exited' }), input: 7 }),
      ]).toContainEqual(output[6])
      for (const [index, record] of output.slice(7).entries()) {
        expect(record).toMatchObject({ error: { code: 'server_exited' }, input: index + 8 })
      }
      expect(result.code).toBe(3)
      expect(pids.pids().length).toBeGreaterThan(0)
      expect(pids.running()).toEqual([])
    } finally {
      pids.remove()
    }
  })
})

describe('put is one call at a time unless told otherwise', () => {
  it('1,000 create_entities records into server-memory (which rewrites its file per call) all persist', async () => {
    const memoryFile = join(scratch, 'memory.jsonl')
    const server = `mcp+node://${npmServers.memory}`
    const env = ['--env', `MEMORY_FILE_PATH=${memoryFile}`]
    const input = Array.from({ length: 1000 }, (_, index) =>
      JSON.stringify({ entities: [{ name: `entity-${index}`, entityType: 'test', observations: [] }] }),
    ).join('\n')
    const put = await runCli(['put', `${server}?tool=create_entities`, ...env], { input, timeoutMs: 120_000 })
    expect(put.code).toBe(0)
    const output = records(put.stdout) as Array<{ error?: unknown }>
    expect(output).toHaveLength(1000)
    expect(output.filter((record) => record.error !== undefined)).toEqual([])
    // Read the graph back through the server, as a user would.
    const graph = await runCli(['cat', `${server}?tool=read_graph`, ...env])
    const [read] = records(graph.stdout) as Array<{ entities: Array<{ name: string }> }>
    expect(new Set(read?.entities.map((entity) => entity.name)).size).toBe(1000)
  }, 150_000)

  /** Which record's call finished first, from the trace (written as calls complete). */
  async function firstFinished(args: string[], env: Record<string, string> = {}): Promise<number> {
    const trace = join(scratch, `trace-${Math.random().toString(36).slice(2)}.ndjson`)
    // The first call sleeps 400 ms, the second not at all: run together, the second finishes first.
    const input = [{ ms: 400 }, { ms: 0 }].map((record) => JSON.stringify(record)).join('\n')
    const result = await runCli([...args, '--trace', trace], { input, env })
    expect(result.code, result.stderr).toBe(0)
    const [first] = records(readFileSync(trace, 'utf8')) as Array<{ args: { ms: number } }>
    return first?.args.ms ?? -1
  }

  it("by default; with the profile's concurrency; --concurrency wins over the profile", async () => {
    expect(await firstFinished(['put', `${basic}?tool=slow`])).toBe(400)
    expect(await firstFinished(['put', `${basic}?tool=slow`, '--concurrency', '2'])).toBe(0)
    const home = join(scratch, 'home')
    mkdirSync(join(home, 'profiles'), { recursive: true })
    writeFileSync(
      join(home, 'profiles', 'parallel.json'),
      JSON.stringify({ command: process.execPath, args: [fixtureServers.basic], concurrency: 2 }),
    )
    const env = { MCP_KIT_HOME: home }
    expect(await firstFinished(['put', '@parallel/slow'], env)).toBe(0)
    expect(await firstFinished(['put', '@parallel/slow', '--concurrency', '1'], env)).toBe(400)
  })

  it('--help says why; a bad --concurrency is a usage error', async () => {
    const help = await runCli(['put', '--help'])
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(
      'a server that rewrites its state on every call loses data to concurrent calls',
    )
    const bad = await runCli(['put', `${basic}?tool=echo`, '--concurrency', '0'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toBe('mcp-kit: --concurrency must be a whole number from 1 to 1024 (got 0)\n')
  })
})
