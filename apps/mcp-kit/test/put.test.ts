// put: one call per NDJSON record, concurrent, in order, nothing dropped or duplicated.

import { fixtureServers } from '@mcp-kit/fixtures'
import { describe, expect, it } from 'vitest'
import { pidFile, records, runCli } from './helpers.js'

const basic = `mcp+node://${fixtureServers.basic}`

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
      expect(output[5]).toMatchObject({ error: { code: 'connect_failed' }, input: 6 })
      // Record 7 was in flight beside record 6 (concurrency 2): it may have made it or not.
      expect([
        { type: 'text', text: 'm6' },
        expect.objectContaining({ error: expect.objectContaining({ code: 'connect_failed' }), input: 7 }),
      ]).toContainEqual(output[6])
      for (const [index, record] of output.slice(7).entries()) {
        expect(record).toMatchObject({ error: { code: 'connect_failed' }, input: index + 8 })
      }
      expect(result.code).toBe(3)
      expect(pids.pids().length).toBeGreaterThan(0)
      expect(pids.running()).toEqual([])
    } finally {
      pids.remove()
    }
  })
})
