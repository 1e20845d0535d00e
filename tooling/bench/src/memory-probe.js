// Loaded into a server under test by the memory-2026 row (`node --expose-gc --import
// …/memory-probe.js <server>`), the same way into mcp-kit serve and the SDK anchor: on SIGUSR2 it
// runs full garbage collections and writes process.memoryUsage() as JSON to the file named by
// MCP_KIT_BENCH_MEMORY_FILE, so the bench reads live memory rather than RSS with garbage in it.

import { writeFileSync } from 'node:fs'

const file = process.env.MCP_KIT_BENCH_MEMORY_FILE
if (file && typeof globalThis.gc === 'function') {
  process.on('SIGUSR2', () => {
    // Twice: the first collection may leave objects that only finalizers of the first freed.
    globalThis.gc()
    globalThis.gc()
    writeFileSync(file, JSON.stringify(process.memoryUsage()))
  })
}
