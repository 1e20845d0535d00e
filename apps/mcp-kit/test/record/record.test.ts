// @module-tag integration
// Recording: `mcp-kit record -- <command>` and `--record FILE` save what a session sent and got as
// a collection whose expectations are the answers seen (volatile fields masked, the masks listed);
// `mcp-kit test` replays it green, fails with a diff naming the step and the path once the
// server answers otherwise, and `--update` makes it green again. A `shell` session typed in a real
// terminal (tmux) replays too.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { binPath, records, runCli } from '../helpers/helpers.js'
import { openTerminal } from '../helpers/terminal.js'

const directory = mkdtempSync(join(tmpdir(), 'mcp-kit-record-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

const registry = fileURLToPath(new URL('../fixtures/answers-registry.mjs', import.meta.url))
const answers = join(directory, 'answers.txt')
const cli = `${process.execPath} ${binPath}`
const server = ['--', process.execPath, binPath, 'serve', registry]

interface StepRecord {
  type: string
  step?: string
  status?: string
  failures?: Array<{ assertion: string; message: string; path?: string }>
}

describe('a recorded session', () => {
  it('replays green; fails with the step and the path once the answer changes; --update makes it green', async () => {
    writeFileSync(answers, 'Hello')
    const out = join(directory, 'greetings.yaml')
    const env = ['--env', `ANSWERS_FILE=${answers}`]
    // Two calls alike in one session (put), then a question answered (cat --input).
    const script = [
      `printf '{"name":"Ada"}\\n{"name":"Ada"}\\n' | ${cli} put --tool greet ${env.join(' ')} ${server.join(' ')}`,
      `${cli} cat --tool confirm --input sure=true ${env.join(' ')} ${server.join(' ')}`,
    ].join(' && ')
    const recorded = await runCli(['record', '--out', out, '--', 'sh', '-c', script], {
      cwd: directory,
      timeoutMs: 60_000,
    })
    expect(recorded.code).toBe(0)
    expect(recorded.stderr).toMatch(
      /mcp-kit: recorded 3 calls to .*greetings\.yaml; \d+ masks of volatile values/,
    )
    expect(records(recorded.stdout)).toHaveLength(3) // the command's own output went through

    const file = parse(readFileSync(out, 'utf8'))
    // The rules found the timestamps and UUIDs; two answers to one request told the counter apart.
    expect(file.masks.map((mask: { name: string }) => mask.name)).toEqual(
      expect.arrayContaining(['timestamp', 'uuid']),
    )
    const greet = file.steps.find((step: { call?: string }) => step.call === 'greet')
    expect(greet.arguments).toEqual({ name: 'Ada' })
    expect(greet.expect.masks).toEqual(
      expect.arrayContaining([
        { path: '$.structuredContent.servedAtMs', note: "a time under 'servedAtMs'" },
        {
          path: '$.structuredContent.call',
          note: 'changed between two recorded answers to the same request',
        },
      ]),
    )
    const confirm = file.steps.find((step: { call?: string }) => step.call === 'confirm')
    expect(confirm.answers).toEqual({ sure: true })
    expect(file.servers[Object.keys(file.servers)[0] as string].env).toEqual({ ANSWERS_FILE: answers })

    const replay = await runCli(['test', out, '--reporter', 'ndjson'], { timeoutMs: 60_000 })
    expect(replay.stderr).toBe('')
    expect(replay.code).toBe(0)

    writeFileSync(answers, 'Goodbye')
    const changed = await runCli(['test', out, '--reporter', 'ndjson'], { timeoutMs: 60_000 })
    expect(changed.code).toBe(1)
    const failed = (records(changed.stdout) as StepRecord[]).filter((line) => line.status === 'failed')
    expect(failed.map((line) => [line.step, line.failures?.map((failure) => failure.message)])).toEqual([
      ['call greet', ['$.structuredContent.greeting: expected "Hello, Ada", got "Goodbye, Ada"']],
      ['call greet #2', ['$.structuredContent.greeting: expected "Hello, Ada", got "Goodbye, Ada"']],
    ])

    const updated = await runCli(['test', out, '--update', '--reporter', 'ndjson'], { timeoutMs: 60_000 })
    expect(updated.code).toBe(0)
    expect(updated.stderr).toMatch(/mcp-kit: updated 2 steps in .*greetings\.yaml/)
    expect(parse(readFileSync(out, 'utf8')).masks).toEqual(file.masks)
    const again = await runCli(['test', out, '--reporter', 'ndjson'], { timeoutMs: 60_000 })
    expect(again.code).toBe(0)
  }, 180_000)

  it('--record on cat and put adds to one collection; secret values are written as ${NAME}', async () => {
    writeFileSync(answers, 'Hi')
    const out = join(directory, 'calls.yaml')
    const env = ['--env', `ANSWERS_FILE=${answers}`, '--env', 'API_TOKEN=sekrit-value']
    const cat = await runCli(['cat', '--tool', 'greet', 'name=Bo', '--record', out, ...env, ...server])
    expect(cat.code).toBe(0)
    expect(cat.stderr).toMatch(
      /recorded 1 call to .*calls\.yaml; .*secret values are written as \$\{API_TOKEN\}/,
    )
    const put = await runCli(['put', '--tool', 'greet', '--record', out, ...env, ...server], {
      input: '{"name":"Cy"}\n{"name":"Di"}\n',
    })
    expect(put.code).toBe(0)
    const text = readFileSync(out, 'utf8')
    expect(text).not.toContain('sekrit-value')
    const file = parse(text)
    expect(
      file.steps
        .filter((step: { call?: string }) => step.call === 'greet')
        .map((step: { arguments: unknown }) => step.arguments),
    ).toEqual([{ name: 'Bo' }, { name: 'Cy' }, { name: 'Di' }])
    // Replayed with the secret given by --env, as the note said.
    const replay = await runCli(['test', out, '--env', 'API_TOKEN=sekrit-value', '--reporter', 'ndjson'], {
      timeoutMs: 60_000,
    })
    expect(replay.code).toBe(0)
    const without = await runCli(['test', out], { env: { API_TOKEN: undefined } })
    expect(without.code).toBe(2)
    expect(without.stderr).toContain('${API_TOKEN} is not set')
  }, 120_000)

  it('a shell session typed in a terminal, recorded and replayed', async () => {
    const out = join(directory, 'shell.yaml')
    const terminal = openTerminal(
      `cd ${directory} && ${cli} record --out shell.yaml -- ${cli} shell @demo; echo "exit=$?"; sleep 60`,
      { env: { NO_COLOR: '1', XDG_STATE_HOME: join(directory, 'state') } },
    )
    try {
      await expect.poll(terminal.screen, { timeout: 20_000 }).toMatch(/Type help/)
      for (const line of [
        'echo message="recorded in a shell"',
        'add a=2 b=40',
        'read demo://readme',
        'prompt greet name=Ada',
      ]) {
        terminal.type(line)
        terminal.press('Enter')
      }
      await expect.poll(terminal.screen, { timeout: 10_000 }).toMatch(/friendly greeting for Ada/)
      // Ctrl-C at the prompt (twice) is the shell's: the recording goes on.
      terminal.type('half a line')
      terminal.press('C-c')
      terminal.press('C-c')
      await expect.poll(terminal.screen, { timeout: 10_000 }).toMatch(/\^C\n.*\^C/)
      terminal.type('exit')
      terminal.press('Enter')
      await expect.poll(terminal.screen, { timeout: 20_000 }).toMatch(/exit=0/)
      expect(terminal.screen()).toMatch(/mcp-kit: recorded 4 calls to shell\.yaml/)
    } finally {
      terminal.close()
    }
    const file = parse(readFileSync(out, 'utf8'))
    expect(file.servers).toEqual({ demo: '@demo' })
    expect(
      file.steps.map((step: Record<string, unknown>) => step.call ?? step.read ?? step.prompt ?? step.list),
    ).toEqual(['tools', 'echo', 'add', 'demo://readme', 'greet'])
    const replay = await runCli(['test', out, '--reporter', 'ndjson'], { timeoutMs: 60_000 })
    expect(replay.code).toBe(0)
    expect((records(replay.stdout) as StepRecord[]).filter((line) => line.type === 'step')).toHaveLength(5)
  }, 90_000)

  it("Ctrl-C is the recorded command's: mcp-kit record keeps recording until the command ends", async () => {
    const out = join(directory, 'interrupted.yaml')
    const call = `${cli} cat @demo/echo message=`
    const result = await runCli(
      ['record', '--out', out, '--', 'sh', '-c', `${call}one && sleep 2 && ${call}two`],
      {
        timeoutMs: 60_000,
        onSpawn: (child) => {
          // Once the command runs (its first call printed), two interrupts, as a terminal sends them.
          let sent = false
          child.stdout?.on('data', (text: Buffer) => {
            if (sent || !text.toString().includes('one')) return
            sent = true
            child.kill('SIGINT')
            setTimeout(() => child.kill('SIGINT'), 100)
          })
        },
      },
    )
    expect(result.code).toBe(0)
    expect(
      parse(readFileSync(out, 'utf8')).steps.map((step: { arguments?: unknown }) => step.arguments),
    ).toEqual([undefined, { message: 'one' }, { message: 'two' }])
  }, 60_000)

  it('nothing recorded: said so, the file left alone, exit 1', async () => {
    const out = join(directory, 'empty.yaml')
    const result = await runCli(['record', '--out', out, '--', process.execPath, '-e', '0'])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/nothing was recorded/)
    expect(() => readFileSync(out)).toThrow()
  })
})
