// The web client's build: one entry, hashed assets, no inline script or style (the server's
// Content-Security-Policy allows neither), nothing inlined as data: URLs.

import { defineConfig } from 'vite'

export default defineConfig({
  root: 'web',
  base: './',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    cssCodeSplit: true,
    reportCompressedSize: false,
    target: 'es2022',
  },
})
