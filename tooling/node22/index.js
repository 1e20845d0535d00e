// Path of the Node 22 binary installed from the npm package `node@22`; the conformance CLI
// and the Inspector CLI need Node 22 while mcp-kit itself runs on Node 20.19+.
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)

function findNode22() {
  const packageDir = dirname(require.resolve('node/package.json'))
  for (const candidate of [join(packageDir, 'bin', 'node'), join(packageDir, 'bin', 'node.exe')]) {
    if (existsSync(candidate)) return candidate
  }
  throw new Error(
    `node@22 is installed at ${packageDir} but its binary is missing (was its install script allowed to run?)`,
  )
}

export const node22Path = findNode22()
