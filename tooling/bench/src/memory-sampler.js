// Preloaded into a server under the soak (`node --expose-gc --import <this> …`): on SIGUSR2 it
// collects garbage and appends one line of process.memoryUsage() to the file named by
// MCP_KIT_BENCH_MEMORY_FILE, so the bench samples the live heap (what a leak grows) at moments
// it chooses, not whatever garbage happens to be waiting. Nothing else of the server changes.

import { appendFileSync } from 'node:fs'

const file = process.env.MCP_KIT_BENCH_MEMORY_FILE
if (file !== undefined && file !== '') {
  process.on('SIGUSR2', () => {
    globalThis.gc?.()
    const usage = process.memoryUsage()
    appendFileSync(file, `${JSON.stringify({ at: Date.now(), ...usage })}\n`)
  })
}
