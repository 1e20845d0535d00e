// @module-tag integration
// The CLI in both protocol eras, end to end: a registry tool that asks the user to confirm
// (MRTR under 2026-07-28, an elicitation request under 2025-11-25) answered from --input, refused
// with exit 6 when nothing can answer, and asked on a real terminal (tmux); `watch` printing a
// list change when the served registry adds a tool at runtime.

import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { binPath, records, runCli } from '../helpers/helpers.js'
import { openTerminal } from '../helpers/terminal.js'

const directory = mkdtempSync(join(tmpdir(), 'mcp-kit-eras-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

const registryPath = join(directory, 'notes.mjs')
writeFileSync(
  registryPath,
  `export default ({ createToolRegistry }) => {
  const registry = createToolRegistry().tool({
    name: 'delete_note',
    description: 'Deletes a note after the user confirms',
    inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    handler: async ({ id }, context) => {
      const answer = await context.elicit({
        message: 'Delete note ' + id + '?',
        requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', description: 'yes to delete' } }, required: ['confirm'] },
      })
      return answer.action === 'accept' && answer.content?.confirm === true ? 'deleted ' + id : 'kept ' + id
    },
  })
  if (process.env.ADD_TOOL_AFTER_MS) {
    setTimeout(() => registry.tool({ name: 'added_later', handler: () => 'hi' }), Number(process.env.ADD_TOOL_AFTER_MS))
  }
  return registry
}
`,
)
// The registry served over stdio by mcp-kit itself, as a naked reference.
const stdioReference = `mcp+node://${binPath}?arg=serve&arg=${encodeURIComponent(registryPath)}&arg=--stdio`

const eras = [
  ['2026-07-28', 'auto'],
  ['2025-11-25', '2025-11-25'],
] as const

describe.each(eras)('MCP %s', (version, protocol) => {
  test('a question is answered from --input', async () => {
    const result = await runCli([
      'cat',
      `${stdioReference}&tool=delete_note&id=n1`,
      '--protocol',
      protocol,
      '--input',
      'confirm=true',
    ])
    expect(result.stderr).toBe('')
    expect(records(result.stdout)).toEqual([{ type: 'text', text: 'deleted n1' }])
    expect(result.code).toBe(0)
  })

  test('a question nobody can answer: exit 6 naming the flag', async () => {
    const result = await runCli(['cat', `${stdioReference}&tool=delete_note&id=n1`, '--protocol', protocol])
    expect(result.code).toBe(6)
    expect(result.stderr).toMatch(/Delete note n1\?/)
    expect(result.stderr).toMatch(/--input confirm=/)
  })

  test('inspect names the revision', async () => {
    const result = await runCli(['inspect', stdioReference, '--protocol', protocol, '--format', 'json'])
    const document = JSON.parse(result.stdout)
    expect(document.protocolVersion).toBe(version)
    expect(document.era).toBe(version === '2026-07-28' ? 'modern' : 'legacy')
    if (version === '2026-07-28')
      expect(document.cacheHints['tools/list']).toEqual({ ttlMs: 60_000, scope: 'public' })
  })

  test('watch prints a list change when the registry adds a tool', async () => {
    const lines: unknown[] = []
    const child = spawn(
      process.execPath,
      [binPath, 'watch', stdioReference, '--protocol', protocol, '--env', 'ADD_TOOL_AFTER_MS=1000'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let buffer = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk
      for (let at = buffer.indexOf('\n'); at !== -1; at = buffer.indexOf('\n')) {
        lines.push(JSON.parse(buffer.slice(0, at)))
        buffer = buffer.slice(at + 1)
      }
    })
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    await expect
      .poll(
        () =>
          lines.some((line) => (line as { method: string }).method === 'notifications/tools/list_changed'),
        {
          timeout: 15_000,
        },
      )
      .toBe(true)
    child.kill('SIGINT')
    expect(await exited).toBe(130)
  })
})

test('on a terminal, the question is asked (tmux)', async () => {
  const command = `node ${binPath} cat '${stdioReference}&tool=delete_note&id=n7'; echo "exit=$?"; sleep 30`
  const terminal = openTerminal(command)
  try {
    await expect.poll(terminal.screen, { timeout: 15_000 }).toMatch(/confirm \(boolean, required\)/)
    expect(terminal.screen()).toMatch(/the server asks: Delete note n7\?/)
    terminal.type('true')
    terminal.press('Enter')
    await expect.poll(terminal.screen, { timeout: 10_000 }).toMatch(/Send this answer\?/)
    terminal.press('Enter')
    await expect.poll(terminal.screen, { timeout: 10_000 }).toMatch(/exit=0/)
    expect(terminal.screen()).toMatch(/\{"type":"text","text":"deleted n7"\}/)
  } finally {
    terminal.close()
  }
})

test('a question nobody answers on the terminal gives up after --input-timeout (tmux)', async () => {
  // 2025-11-25: the question is a request the server waits on; --timeout is long, so only the
  // question's own limit can end the wait.
  const command = `node ${binPath} cat '${stdioReference}&tool=delete_note&id=n8' --protocol 2025-11-25 --timeout 60 --input-timeout 1; echo "exit=$?"; sleep 30`
  const terminal = openTerminal(command)
  try {
    await expect.poll(terminal.screen, { timeout: 15_000 }).toMatch(/exit=\d+/)
    const screen = terminal.screen()
    expect(screen).toMatch(/confirm \(boolean, required\)/)
    expect(screen).toMatch(/mcp-kit: tools\/call 'delete_note': input question timed out after 1 s/)
    expect(screen).toMatch(/exit=4/)
  } finally {
    terminal.close()
  }
})
