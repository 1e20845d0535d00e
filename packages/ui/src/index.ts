// Where the built web client of `mcp-kit ui` lies: static files (index.html, hashed assets) with
// brotli and gzip copies beside each, for a server to send as they are.

import { fileURLToPath } from 'node:url'

/**
 * The directory of the built web client: `index.html` and `assets/`, each compressible file with
 * `.br` and `.gz` beside it. The same path from the source entry and from `dist/`.
 */
export const assetsDirectory: string = fileURLToPath(new URL('../dist/web/', import.meta.url))

/** The page a server sends for `/`, inside `assetsDirectory`. */
export const indexFile = 'index.html'
