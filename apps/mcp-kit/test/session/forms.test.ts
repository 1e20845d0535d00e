// @module-tag integration
// A server's forms (elicitation) as people meet them: without a terminal, the exit-6 message lists
// every field with its type, its choices and whether it is required, and a wrong value is told the
// allowed values; on a real terminal (tmux) a question starts a line of its own and Tab offers a
// field's choices (true/false, enum values); in `mcp-kit shell` a long form is asked without Node
// warnings, and titled enums show their titles in forms, in `help` and in the values Tab offers
// for a tool's parameter.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { argumentCandidates } from '../../src/session/argument-names.js'
import { binPath, records, runCli } from '../helpers/helpers.js'
import { openTerminal, type Terminal } from '../helpers/terminal.js'

const directory = mkdtempSync(join(tmpdir(), 'mcp-kit-forms-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

const size = {
  type: 'string',
  title: 'Size',
  oneOf: [
    { const: 's', title: 'Small' },
    { const: 'l', title: 'Large' },
  ],
}
const notes = ['note1', 'note2', 'note3', 'note4', 'note5', 'note6', 'note7']
const registry = join(directory, 'forms.mjs')
writeFileSync(
  registry,
  `const size = ${JSON.stringify(size)}
const properties = {
  name: { type: 'string' },
  nickname: { type: 'string' },
  color: { type: 'string', enum: ['red', 'green'] },
  size,
  subscribe: { type: 'boolean' },
}
for (const note of ${JSON.stringify(notes)}) properties[note] = { type: 'string' }
export default ({ createToolRegistry }) =>
  createToolRegistry()
    .tool({
      name: 'survey',
      handler: async (_args, context) => {
        const answer = await context.elicit({
          message: 'A few questions',
          requestedSchema: { type: 'object', properties, required: ['name', 'color'] },
        })
        return JSON.stringify(answer.content ?? answer.action)
      },
    })
    .tool({
      name: 'confirm',
      handler: async (_args, context) => {
        const answer = await context.elicit({
          message: 'Sure?',
          requestedSchema: { type: 'object', properties: { sure: { type: 'boolean' } }, required: ['sure'] },
        })
        return JSON.stringify(answer.content ?? answer.action)
      },
    })
    .tool({
      name: 'paint',
      inputSchema: { type: 'object', properties: { size, glossy: { type: 'boolean' } } },
      handler: (args) => JSON.stringify(args),
    })
`,
)
const server = `mcp+node://${binPath}?arg=serve&arg=${encodeURIComponent(registry)}&arg=--stdio`

describe('without a terminal', () => {
  it('exit 6 lists every field: its type, its choices (titles too), required or optional', async () => {
    const result = await runCli(['cat', `${server}&tool=survey`, '--input', 'nickname=Al'])
    expect(result.code).toBe(6)
    expect(result.stderr).toContain(
      [
        `the server asks "A few questions" and needs 'name', 'color': run it on a terminal, or answer with --input name=… (or --input-json '{…}'). The form:`,
        '  name (string, required)',
        '  nickname (string, optional) (given: "Al")',
        '  color (string, required): one of red, green',
        '  size (string, optional): one of s (Small), l (Large)',
        '  subscribe (boolean, optional): true or false',
        '  note1 (string, optional)',
      ].join('\n'),
    )
  })

  it('a wrong value is told the allowed values, not the schema; a title stands for its value', async () => {
    const answer = ['--input', 'name=Ada', '--input', 'color=red']
    const wrong = await runCli(['cat', `${server}&tool=survey`, ...answer, '--input', 'size=m'])
    expect(wrong.code).toBe(6)
    expect(wrong.stderr).toBe(
      'mcp-kit: the answer to "A few questions" does not fit the form: size: must be one of "s" (Small), "l" (Large) (got "m")\n',
    )
    const titled = await runCli(['cat', `${server}&tool=survey`, ...answer, '--input', 'size=Large'])
    expect(titled.stderr).toBe('')
    expect(records(titled.stdout)).toEqual([{ name: 'Ada', color: 'red', size: 'l' }])
  })

  it("a tool parameter's titled choices are offered with their titles", () => {
    expect(argumentCandidates({ properties: { size } }, 'size=', new Set())).toEqual([
      { word: 'size=s', description: 'Small' },
      { word: 'size=l', description: 'Large' },
    ])
  })
})

/** Waits for `pattern` on the screen. */
async function see(terminal: Terminal, pattern: RegExp): Promise<void> {
  await expect.poll(terminal.screen, { timeout: 10_000 }).toMatch(pattern)
}

/** Tab twice, the second once the first was taken (the shell completes asynchronously): the list. */
async function tabTwice(terminal: Terminal): Promise<void> {
  terminal.press('Tab')
  await new Promise((resolve) => setTimeout(resolve, 300))
  terminal.press('Tab')
}

function openShell(): Terminal {
  return openTerminal(`${process.execPath} ${binPath} shell '${server}' --no-history; sleep 60`, {
    env: { NO_COLOR: '1' },
  })
}

describe('on a terminal (tmux)', () => {
  it('cat: the question starts a line of its own (not after "calling …"), Tab offers its choices', async () => {
    const terminal = openTerminal(
      `${process.execPath} ${binPath} cat '${server}&tool=confirm'; echo "exit=$?"; sleep 60`,
      { env: { NO_COLOR: '1' } },
    )
    try {
      await see(terminal, /^ {2}sure \(boolean, required\) \[true\/false\]: ?$/m)
      expect(terminal.screen()).toMatch(/^mcp-kit: the server asks: Sure\?$/m)
      terminal.type('f')
      terminal.press('Tab')
      await see(terminal, /\[true\/false\]: false$/m)
      terminal.press('Enter')
      await see(terminal, /Send this answer\?/)
      terminal.press('Enter')
      await see(terminal, /^\{"sure":false\}$/m)
      await see(terminal, /exit=0/)
    } finally {
      terminal.close()
    }
  })
})

describe('mcp-kit shell on a terminal (tmux)', () => {
  it('a form of more than ten fields: asked to the end without a MaxListenersExceededWarning', async () => {
    const terminal = openShell()
    try {
      await see(terminal, /3 tools\. Type help/)
      terminal.type('survey')
      terminal.press('Enter')
      const answers: Array<[string, string]> = [
        ['name', 'Ada'],
        ['nickname', ''],
        ['color', 'green'],
        ['size', ''],
        ['subscribe', ''],
        ...notes.map((note): [string, string] => [note, `${note} text`]),
      ]
      for (const [field, answer] of answers) {
        await see(terminal, new RegExp(`^ {2}${field} \\(`, 'm'))
        if (answer !== '') terminal.type(answer)
        terminal.press('Enter')
      }
      await see(terminal, /Send this answer\?/)
      terminal.press('Enter')
      await see(terminal, /"note7":"note7 text"/)
      expect(terminal.screen()).not.toMatch(/MaxListenersExceeded|memory leak/)
    } finally {
      terminal.close()
    }
  })

  it('Tab offers true/false and enum values in forms, titled choices show their titles', async () => {
    const terminal = openShell()
    try {
      await see(terminal, /3 tools\. Type help/)
      // A tool parameter's titled enum: its values on Tab, its titles in help.
      terminal.type('paint size=')
      await tabTwice(terminal)
      await see(terminal, /size=s\s+size=l/)
      terminal.type('l glossy=t')
      terminal.press('Tab')
      await see(terminal, /> paint size=l glossy=true$/m)
      terminal.press('Enter')
      await see(terminal, /^\{"size":"l","glossy":true\}$/m)
      terminal.type('help paint')
      terminal.press('Enter')
      await see(terminal, /size=.*one of s \(Small\), l \(Large\)/)

      // A form: the choices of each field, on the question and on Tab.
      terminal.type('survey')
      terminal.press('Enter')
      await see(terminal, /^ {2}name \(string, required\): ?$/m)
      terminal.type('Ada')
      terminal.press('Enter')
      await see(terminal, /^ {2}nickname \(string\): ?$/m)
      terminal.press('Enter')
      await see(terminal, /^ {2}color \(string, required\) \[red\/green\]: ?$/m)
      terminal.type('g')
      terminal.press('Tab')
      await see(terminal, /\[red\/green\]: green$/m)
      terminal.press('Enter')
      await see(terminal, /^ {2}size \(string\) \[s \(Small\)\/l \(Large\)\]: ?$/m)
      terminal.type('Large')
      terminal.press('Enter')
      await see(terminal, /^ {2}subscribe \(boolean\) \[true\/false\]: ?$/m)
      await tabTwice(terminal)
      await see(terminal, /true\s+false/)
      terminal.type('t')
      terminal.press('Tab')
      await see(terminal, /\[true\/false\]: true$/m)
      terminal.press('Enter')
      for (const note of notes) {
        await see(terminal, new RegExp(`^ {2}${note} \\(string\\): ?$`, 'm'))
        terminal.press('Enter')
      }
      await see(terminal, /Send this answer\?/)
      terminal.press('Enter')
      await see(terminal, /^\{"name":"Ada","color":"green","size":"l","subscribe":true\}$/m)
    } finally {
      terminal.close()
    }
  })
})
