// `mcp-kit ui [reference | @profile | -- cmd …]`: the web workspace on a loopback port, its address
// (with this launch's token) printed and opened in a browser where there is one; the servers
// given on the command line connected first. Runs until interrupted.

import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { statSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import { CliError } from '../../base/errors.js'
import { type Io, write } from '../../base/io.js'
import type { ConnectionArguments } from '../../session/connection-flags.js'
import { createWorkspace } from './workspace.js'

export interface UiArguments extends ConnectionArguments {
  reference?: string
  serverCommand?: string[]
  port: number
  host: string
  open?: boolean
  collections?: string
  record?: string
}

const loopback = ['127.0.0.1', 'localhost', '[::1]']

/** Opens the address in the desktop's browser, if there is a desktop; never fails the command. */
function openBrowser(url: string, env: Io['env']): boolean {
  const command =
    process.platform === 'darwin'
      ? 'open'
      : process.platform === 'win32'
        ? 'explorer.exe'
        : env.DISPLAY || env.WAYLAND_DISPLAY
          ? 'xdg-open'
          : undefined
  if (command === undefined) return false
  try {
    const child = spawn(command, [url], { stdio: 'ignore', detached: true })
    child.on('error', () => {})
    child.unref()
    return true
  } catch {
    return false
  }
}

export async function runUi(args: UiArguments, io: Io): Promise<number> {
  if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535)
    throw new CliError('usage', `--port ${args.port}: expected a port number (0 for a free one)`)
  const collections = resolve(io.cwd, args.collections ?? '.')
  if (args.collections !== undefined && !statSync(collections, { throwIfNoEntry: false })?.isDirectory())
    throw new CliError('usage', `--collections ${args.collections}: not a directory`)
  const workspace = createWorkspace(io, args, args.open !== false, collections)
  // The server given on the command line starts first: its launch overlaps everything below.
  if (args.reference !== undefined || args.serverCommand !== undefined) {
    workspace.add(
      args.serverCommand === undefined ? { reference: args.reference } : { command: args.serverCommand },
    )
  }
  // The page's server loads while the MCP server starts.
  const [{ assetsDirectory }, { createStaticFiles }, { createUiServer }] = await Promise.all([
    import('@mcp-kit/ui'),
    import('./static-files.js'),
    import('./http-server.js'),
  ])
  const files = createStaticFiles(assetsDirectory)
  const exposed = !loopback.includes(args.host) && args.host !== '::1'
  if (exposed) {
    io.stderr.write(
      `mcp-kit: warning: --host ${args.host} lets other machines reach this workspace, which runs commands and holds logins; the token is all that stands in the way\n`,
    )
  }
  const token = randomBytes(24).toString('base64url')
  const hostName = args.host === '::1' ? '[::1]' : args.host
  const server = createUiServer({ workspace, files, token, hosts: [...loopback, hostName] })
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new CliError('usage', `cannot listen on ${args.host}:${args.port}: ${error.code ?? error.message}`, {
          cause: error,
        }),
      ),
    )
    server.listen(args.port, args.host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const url = `http://${exposed ? hostName : '127.0.0.1'}:${port}/?token=${token}`
  // MCP App views run on another origin: a second listener, framed only by this workspace's pages.
  const { startAppSandbox } = await import('./app-sandbox.js')
  workspace.sandbox = await startAppSandbox(
    exposed ? args.host : '127.0.0.1',
    [...loopback, hostName].map((host) => `http://${host}:${port}`),
  )
  await write(io.stdout, `${url}\n`)
  if (!args.quiet) io.stderr.write(`mcp-kit: the workspace is at ${url} (Ctrl-C ends it)\n`)
  if (args.open !== false) openBrowser(url, io.env)
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve()
    else io.signal.addEventListener('abort', () => resolve(), { once: true })
  })
  // Stop listening first: an open page's event stream reconnects at once, and a connection taken
  // while the servers shut down would keep this process alive.
  const closed = new Promise<void>((resolve) => server.close(() => resolve()))
  server.closeAllConnections()
  await workspace.close()
  server.closeAllConnections()
  await closed
  return 0
}
