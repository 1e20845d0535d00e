// @module-tag integration
// `mcp-kit test` on the example collections in examples/collections — server-everything from npm
// (tools, resources, prompts, a question answered, a task), a 2026 mcp-kit server, a gateway in
// front of two servers, a server whose tools drift — with JUnit XML a standard parser reads, and
// a bad file, an unreachable server and the reporters as a CI sees them.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { npmServers } from '@mcp-kit/fixtures'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { afterAll, describe, expect, it } from 'vitest'
import { records, runCli } from '../../helpers/helpers.js'

const examples = fileURLToPath(new URL('../../../../../examples/collections/', import.meta.url))
const directory = mkdtempSync(join(tmpdir(), 'mcp-kit-collections-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

const everything = ['--env', `EVERYTHING=mcp+node://${npmServers.everything}`]
const example = (name: string) => join(examples, name)

interface JunitCase {
  '@_name': string
  '@_line'?: string
  failure?: { '#text': string; '@_message': string }
  skipped?: unknown
  error?: unknown
}

function parseJunit(xml: string) {
  expect(XMLValidator.validate(xml)).toBe(true)
  const parsed = new XMLParser({
    ignoreAttributes: false,
    isArray: (name) => ['testsuite', 'testcase'].includes(name),
  }).parse(xml)
  return parsed.testsuites as {
    '@_tests': string
    '@_failures': string
    '@_errors': string
    testsuite: Array<{ '@_name': string; '@_tests': string; '@_failures': string; testcase: JunitCase[] }>
  }
}

describe('the example collections', () => {
  it('pass, with JUnit XML that fast-xml-parser reads: server-everything, a 2026 server, a gateway, drift, the demo', async () => {
    const junit = join(directory, 'results.xml')
    const files = ['everything.yaml', 'notes.yaml', 'gateway.yaml', 'drift.yaml', 'demo.yaml'].map(example)
    const result = await runCli(
      ['test', ...files, ...everything, '--reporter', `junit=${junit}`, '--reporter', 'ndjson'],
      {
        timeoutMs: 180_000,
      },
    )
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const lines = records(result.stdout) as Array<{
      type: string
      status?: string
      step?: string
      collection?: string
    }>
    const steps = lines.filter((line) => line.type === 'step')
    expect(steps.length).toBeGreaterThan(30)
    expect(steps.filter((step) => step.status !== 'passed')).toEqual([])
    expect(lines.at(-1)).toMatchObject({
      type: 'summary',
      collections: 5,
      failed: 0,
      errors: 0,
      passed: steps.length,
    })
    const report = parseJunit(readFileSync(junit, 'utf8'))
    expect(report['@_tests']).toBe(String(steps.length))
    expect(report['@_failures']).toBe('0')
    expect(report.testsuite.map((suite) => suite['@_name'])).toEqual([
      'server-everything',
      'notes (2026-07-28)',
      'gateway',
      'catalog drift',
      'demo',
    ])
    const everythingSuite = report.testsuite[0]?.testcase.map((test) => test['@_name'])
    expect(everythingSuite).toEqual(
      expect.arrayContaining([
        'a form the server asks for, answered',
        'a task that asks a question on the way',
      ]),
    )
  }, 200_000)

  it('a server whose tools changed fails the drift step, naming each breaking change, in JUnit and TAP', async () => {
    const junit = join(directory, 'drift.xml')
    const result = await runCli(
      [
        'test',
        example('drift.yaml'),
        '--env',
        'CATALOG_VERSION=2',
        '--reporter',
        'tap',
        '--reporter',
        `junit=${junit}`,
      ],
      { timeoutMs: 60_000 },
    )
    expect(result.code).toBe(1)
    expect(result.stdout).toContain('not ok 1 - catalog drift › no breaking change to search and lookup')
    expect(result.stdout).toContain(
      "drift: breaking: tool 'lookup': parameter 'id' changed type from integer to string",
    )
    expect(result.stdout).toContain("drift: breaking: tool 'search': parameter 'limit' is now required")
    expect(result.stdout).toMatch(/^1\.\.2$/m)
    const report = parseJunit(readFileSync(junit, 'utf8'))
    const drift = report.testsuite[0]?.testcase[0]
    expect(drift?.['@_line']).toBe('11')
    expect(drift?.failure?.['#text']).toContain(
      "tool 'lookup': parameter 'id' changed type from integer to string",
    )
  }, 90_000)
})

describe('the README', () => {
  it("the Collections section's examples print what it shows", async () => {
    const root = fileURLToPath(new URL('../../../../../', import.meta.url))
    const readme = readFileSync(join(root, 'README.md'), 'utf8')
    const section = readme.slice(
      readme.indexOf('## Collections'),
      readme.indexOf('\n## ', readme.indexOf('## Collections') + 3),
    )
    const examples = [...section.matchAll(/```sh\n\$ mcp-kit (.*)\n([\s\S]*?)```/g)]
      .map(([, command, output]) => ({ command: command as string, output: output as string }))
      .filter((example) => !example.output.includes('…'))
    expect(examples.length).toBeGreaterThan(0)
    for (const example of examples) {
      const result = await runCli(example.command.split(' '), { cwd: root, timeoutMs: 60_000 })
      expect(result.stdout, example.command).toBe(example.output)
    }
  }, 90_000)
})

describe('bad collections and servers', () => {
  it('a bad file: one line naming the file, the step and its line; exit 2; nothing runs', async () => {
    const file = join(directory, 'bad.yaml')
    writeFileSync(
      file,
      [
        'servers:',
        '  demo: "@demo"',
        'steps:',
        '  - call: echo',
        '    arguments: { message: hi }',
        '  - name: sums',
        '    call: add',
        '    expect:',
        '      jsn: []',
        '',
      ].join('\n'),
    )
    const trace = join(directory, 'bad-trace.ndjson')
    const result = await runCli(['test', 'bad.yaml', '--trace', trace], { cwd: directory })
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe(
      "mcp-kit: bad.yaml:9:7: step 2 'sums': 'jsn' is not a field here; did you mean 'json'?\n",
    )
    expect(() => readFileSync(trace)).toThrow() // no call was made
  })

  it('a variable nothing sets, and a profile that does not exist, are bad files too (exit 2)', async () => {
    const unset = join(directory, 'unset.yaml')
    writeFileSync(
      unset,
      'servers:\n  demo: "@demo"\nsteps:\n  - call: echo\n    arguments: { message: "${NOT_SET_ANYWHERE}" }\n',
    )
    const first = await runCli(['test', unset], { env: { NOT_SET_ANYWHERE: undefined } })
    expect(first.code).toBe(2)
    expect(first.stderr).toMatch(
      /^mcp-kit: .*unset\.yaml:4: step 1 'call echo': \$\{NOT_SET_ANYWHERE\} is not set/,
    )
    const given = await runCli(['test', unset, '--env', 'NOT_SET_ANYWHERE=hi', '--reporter', 'ndjson'])
    expect(given.code).toBe(0)
    const missing = join(directory, 'missing.yaml')
    writeFileSync(missing, 'servers:\n  demo: "@no-such-profile"\nsteps:\n  - list: tools\n')
    const second = await runCli(['test', missing])
    expect(second.code).toBe(2)
    expect(second.stderr).toMatch(/missing\.yaml:2: server 'demo': profile 'no-such-profile' not found/)
  })

  it('a server that cannot be launched: its steps could not run, exit 3', async () => {
    const file = join(directory, 'down.yaml')
    writeFileSync(
      file,
      'servers:\n  gone:\n    command: [node, ./no-such-server.js]\nsteps:\n  - list: tools\n',
    )
    const junit = join(directory, 'down.xml')
    const result = await runCli(['test', file, '--reporter', `junit=${junit}`])
    expect(result.code).toBe(3)
    const report = parseJunit(readFileSync(junit, 'utf8'))
    expect(report['@_errors']).toBe('1')
  })
})

describe('the run', () => {
  it('--grep picks steps (with the one they capture from), --bail skips what follows a failure', async () => {
    const grep = await runCli([
      'test',
      example('demo.yaml'),
      '--grep',
      'captured sum',
      '--reporter',
      'ndjson',
    ])
    expect(grep.code).toBe(0)
    expect(
      records(grep.stdout).flatMap((line) =>
        (line as { step?: string }).step ? [(line as { step: string }).step] : [],
      ),
    ).toEqual(['add conforms to its outputSchema', 'the captured sum in the next call'])
    const file = join(directory, 'bail.yaml')
    writeFileSync(
      file,
      'servers:\n  demo: "@demo"\nsteps:\n  - call: echo\n    arguments: { message: a }\n    expect: { json: [{ path: "$.content[0].text", equals: b }] }\n  - call: echo\n    arguments: { message: c }\n',
    )
    const bail = await runCli(['test', file, '--bail', '--reporter', 'ndjson'])
    expect(bail.code).toBe(1)
    expect(records(bail.stdout).map((line) => (line as { status?: string }).status)).toEqual([
      'failed',
      'skipped',
      undefined,
    ])
  })

  it('a step over its time limit fails; --max-time stops the run', async () => {
    const file = join(directory, 'slow.yaml')
    writeFileSync(
      file,
      `servers:\n  everything: "mcp+node://${npmServers.everything}"\nsteps:\n  - call: trigger-long-running-operation\n    arguments: { duration: 30, steps: 30 }\n    timeout: 1s\n  - call: echo\n    arguments: { message: after }\n`,
    )
    const result = await runCli(['test', file, '--reporter', 'ndjson'], { timeoutMs: 60_000 })
    expect(result.code).toBe(1)
    const [slow, after] = records(result.stdout) as Array<{
      status: string
      failures?: Array<{ message: string }>
    }>
    expect(slow?.failures?.[0]?.message).toBe("no answer within 1 s (the step's timeout)")
    expect(after?.status).toBe('passed')
    // No step limit this time: the run's limit stops the long call and skips the rest.
    const whole = join(directory, 'whole.yaml')
    writeFileSync(whole, readFileSync(file, 'utf8').replace('    timeout: 1s\n', ''))
    const stopped = await runCli(
      ['test', whole, '--reporter', 'ndjson', '--max-time', '3', '--timeout', '60'],
      {
        timeoutMs: 60_000,
      },
    )
    expect(stopped.code).toBe(1)
    const [cut, rest] = records(stopped.stdout) as Array<{
      status: string
      failures?: Array<{ message: string }>
      skipped?: string
    }>
    expect(cut?.failures?.[0]?.message).toMatch(
      /^the run stopped: the run's time limit of 3 s \(--max-time\) ran out/,
    )
    expect(rest).toMatchObject({ status: 'skipped', skipped: expect.stringMatching(/^the run stopped/) })
  }, 90_000)

  it("a question the step's answers leave open fails the step, naming the field; titled choices answer by title", async () => {
    const file = join(directory, 'unanswered.yaml')
    writeFileSync(
      file,
      `servers:\n  everything: "mcp+node://${npmServers.everything}"\nsteps:\n  - call: trigger-elicitation-request\n    answers: { integer: 3 }\n  - call: trigger-elicitation-request\n    answers: { name: Ada, titledSingleSelectEnum: Wonder Woman }\n    expect:\n      json: [{ path: "$.content[2].text", contains: '"titledSingleSelectEnum": "hero-3"' }]\n`,
    )
    const result = await runCli(['test', file, '--reporter', 'ndjson'], { timeoutMs: 60_000 })
    expect(result.code).toBe(1)
    const [open, titled] = records(result.stdout) as Array<{
      status: string
      failures?: Array<{ message: string }>
    }>
    expect(open?.failures?.[0]?.message).toMatch(
      /^failed with input_required: .*the server asks "Please provide inputs for the following fields:" and needs 'name': give it in the step's answers$/,
    )
    expect(titled?.status).toBe('passed')
  }, 90_000)

  it('a line per step on a terminal, with the failures under the step', async () => {
    const file = join(directory, 'pretty.yaml')
    writeFileSync(
      file,
      'servers:\n  demo: "@demo"\nsteps:\n  - name: says hi\n    call: echo\n    arguments: { message: hi }\n  - name: says bye\n    call: echo\n    arguments: { message: hi }\n    expect: { result: { content: [{ type: text, text: bye }] } }\n',
    )
    const result = await runCli(['test', file, '--reporter', 'pretty'])
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(
      /^pretty .*pretty\.yaml\n {2}✓ says hi {2}[\d.]+ (ms|s)\n {2}✗ says bye {2}[\d.]+ (ms|s) {2}line 7\n {6}result: \$\.content\[0\]\.text: expected "bye", got "hi"\n1 passed, 1 failed \(/,
    )
  })
})
