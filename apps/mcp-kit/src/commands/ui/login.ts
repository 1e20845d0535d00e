// `auth login` from the page: the CLI's own login (runAuthLogin) for an HTTP server, its browser
// leg opened where there is a browser; its messages (the address to visit) reach the page.

import { CliError } from '../../base/errors.js'
import { runAuthLogin } from '../shared/auth-login.js'
import { cliEquivalent } from './cli-equivalent.js'
import type { ServerEntry } from './server-entry.js'
import { lineSink } from './ui-io.js'
import type { Workspace } from './workspace.js'

export async function login(entry: ServerEntry, workspace: Workspace): Promise<Record<string, unknown>> {
  const reference = entry.source.reference
  if (reference === undefined || entry.resolved?.server.transport !== 'http') {
    throw new CliError('usage', `${entry.name}: logins are for HTTP servers given by reference`)
  }
  const lines: string[] = []
  const say = (line: string) => {
    lines.push(line)
    workspace.hub.publish({ type: 'notice', serverId: entry.id, message: line })
  }
  const io = { ...entry.io(), stdout: lineSink(say), stderr: lineSink(say) }
  // The browser leg opens where `mcp-kit ui` opens browsers; otherwise its address reaches the page.
  const browser = workspace.args.browser !== false && workspace.openBrowser
  await runAuthLogin({ ...workspace.args, browser, reference, 'login-timeout': 300, 'keep-alive': '0' }, io)
  await entry.connect()
  return { ok: true, output: lines, command: cliEquivalent(entry, { kind: 'login' }) }
}
