// Where the Python peers live, and whether their environment is ready (made by setup.js).

import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const here = fileURLToPath(new URL('.', import.meta.url))

export const venvDirectory = `${here}.venv`
export const venvPython = `${venvDirectory}/bin/python`
export const stampPath = `${venvDirectory}/mcp-kit-ready.json`

/** The servers and the client, by path. */
export const peers = {
  fastmcpServer: `${here}servers/fastmcp_server.py`,
  lowlevelServer: `${here}servers/lowlevel_server.py`,
  fastmcpClient: `${here}clients/fastmcp_client.py`,
  registry: `${here}registry.js`,
}

/** What setup.js wrote once the venv was complete: {key, python, fastmcp, mcp}, or undefined. */
export function readyStamp() {
  try {
    return JSON.parse(readFileSync(stampPath, 'utf8'))
  } catch {
    return undefined
  }
}

/**
 * {ready: true, python, versions} when setup.js finished; else {ready: false, reason} saying what is
 * missing and how to make it.
 */
export function pythonPeers() {
  const stamp = readyStamp()
  if (stamp === undefined || !existsSync(venvPython))
    return {
      ready: false,
      reason: `no Python environment with FastMCP at ${venvDirectory} (make it with: node tooling/python-peers/setup.js; .ci/run does)`,
    }
  return { ready: true, python: venvPython, versions: stamp }
}
