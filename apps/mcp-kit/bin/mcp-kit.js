#!/usr/bin/env node
// The installed `mcp-kit` command. A committed file, so the workspace can link it before the
// first build; the CLI itself is compiled to dist/. In a clone that was never built, say so
// instead of failing with a module-resolution stack trace.
import { existsSync } from 'node:fs'

const entry = new URL('../dist/bin.js', import.meta.url)
if (existsSync(entry)) {
  await import(entry.href)
} else {
  process.stderr.write(
    'mcp-kit: this checkout is not built yet: run `npx -y pnpm@10.34.8 build` (or `npx -y pnpm@10.34.8 demo`) at the repository root\n',
  )
  process.exitCode = 2
}
