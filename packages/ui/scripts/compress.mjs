// Precompresses the built web client: a .br and a .gz beside every text asset, so the server
// sends bytes as they are instead of compressing on each request.

import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const root = new URL('../dist/web/', import.meta.url).pathname
const compressible = /\.(?:html|js|css|svg|json|txt|map)$/

function* files(directory) {
  for (const name of readdirSync(directory)) {
    const path = join(directory, name)
    if (statSync(path).isDirectory()) yield* files(path)
    else yield path
  }
}

for (const path of [...files(root)]) {
  if (!compressible.test(path)) continue
  const bytes = readFileSync(path)
  writeFileSync(
    `${path}.br`,
    brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
  )
  writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }))
}
