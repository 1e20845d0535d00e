// @module-tag integration
// A login that starts while the status line says "connecting to …", on a real terminal (tmux):
// the status line is cleared first, so "opening a browser to log in" starts a line of its own.
// The browser is a stand-in `xdg-open` on PATH that opens nothing; no login is completed.

import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type RunningAuthServer, startAuthServer } from '@mcp-kit/fixtures/auth-server'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import { binPath, startServe, stopStarted } from '../helpers/helpers.js'
import { openTerminal } from '../helpers/terminal.js'

const home = mkdtempSync(join(tmpdir(), 'mcp-kit-login-status-'))
const moduleFile = join(home, 'tools.mjs')
let authServer: RunningAuthServer

beforeAll(async () => {
  writeFileSync(
    moduleFile,
    `export default ({ createToolRegistry }) => createToolRegistry().tool({ name: 'whoami', handler: () => 'me' })\n`,
  )
  // A browser that opens nothing: the CLI says it opened one.
  writeFileSync(join(home, 'xdg-open'), '#!/bin/sh\nexit 0\n')
  chmodSync(join(home, 'xdg-open'), 0o755)
  authServer = await startAuthServer()
})

afterEach(stopStarted)

afterAll(async () => {
  await authServer?.close()
  rmSync(home, { recursive: true, force: true })
})

test('on a terminal, the "connecting to …" status line is cleared before "opening a browser to log in"', async () => {
  const env = { MCP_KIT_HOME: join(home, 'config'), MCP_KIT_CACHE_DIR: join(home, 'cache') }
  const serving = await startServe([moduleFile, '--port', '0', '--auth-issuer', authServer.issuer], env)
  // PATH in the command itself: the terminal's shell sets its own.
  const terminal = openTerminal(
    `PATH='${home}':"$PATH" ${process.execPath} ${binPath} cat 'mcp+${serving.url}?tool=whoami'; sleep 60`,
    { env: { ...env, NO_COLOR: '1' } },
  )
  try {
    await expect.poll(terminal.screen, { timeout: 20_000 }).toMatch(/opening a browser to log in/)
    const screen = terminal.screen()
    expect(screen).toMatch(/^mcp-kit: opening a browser to log in; if none appears, open:$/m)
    expect(screen).not.toMatch(/connecting to/)
  } finally {
    terminal.close()
  }
})
