// @module-tag integration
// The built web client (dist/web): the initial JavaScript stays within 150 KB gzip, the page has no
// inline script and fetches nothing from another origin (no fonts, no CDN), and every text asset
// has its .br and .gz beside it.

import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { expect, it } from 'vitest'
import { assetsDirectory } from '../src/index.js'

const html = () => readFileSync(join(assetsDirectory, 'index.html'), 'utf8')

/** The scripts and stylesheets index.html loads, and the modules they import at once. */
function initialScripts(): string[] {
  const seen = new Set<string>()
  const queue = [...html().matchAll(/<script[^>]*src="\.\/([^"]+)"/g)].map((match) => match[1] as string)
  while (queue.length > 0) {
    const file = queue.shift() as string
    if (seen.has(file)) continue
    seen.add(file)
    const code = readFileSync(join(assetsDirectory, file), 'utf8')
    for (const match of code.matchAll(/^import\s*["']\.\/([^"']+)["']|from\s*["']\.\/([^"']+\.js)["']/gm))
      queue.push(`assets/${match[1] ?? match[2]}`)
  }
  return [...seen]
}

it('the initial JavaScript is at most 150 KB gzip', () => {
  const files = initialScripts()
  expect(files.length).toBeGreaterThan(0)
  const gzip = files.reduce(
    (total, file) => total + gzipSync(readFileSync(join(assetsDirectory, file)), { level: 9 }).length,
    0,
  )
  expect(gzip).toBeLessThanOrEqual(150 * 1024)
})

it('no inline script, nothing from another origin', () => {
  expect(html()).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/)
  const everything = readdirSync(join(assetsDirectory, 'assets'))
    .filter((file) => /\.(js|css)$/.test(file))
    .map((file) => readFileSync(join(assetsDirectory, 'assets', file), 'utf8'))
    .join('\n')
  expect(everything).not.toMatch(
    /@import\s+url\(|fonts\.googleapis|https?:\/\/[^"'\s]*\.(?:woff2?|ttf|css)\b/,
  )
  expect(html()).not.toMatch(/https?:\/\//)
})

it('each text asset has precompressed copies', () => {
  const names = readdirSync(join(assetsDirectory, 'assets'))
  for (const file of names.filter((name) => /\.(js|css)$/.test(name))) {
    expect(names).toContain(`${file}.br`)
    expect(names).toContain(`${file}.gz`)
  }
  expect(existsSync(join(assetsDirectory, 'index.html.br'))).toBe(true)
})
