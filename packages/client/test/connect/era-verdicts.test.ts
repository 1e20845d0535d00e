// @module-tag integration
// What the era cache remembers: a verdict only from a server that finished its handshake. A
// server that crashes at start (before and after the probe) is not taken for a 2025 one for good.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixtureServers } from '@mcp-kit/fixtures'
import { afterAll, expect, test } from 'vitest'
import { connect, type EraCache } from '../../src/index.js'

const directory = mkdtempSync(join(tmpdir(), 'mcp-kit-era-verdicts-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

function recordingCache(): EraCache & { sets: string[] } {
  const sets: string[] = []
  return { sets, get: () => undefined, set: (_server, era) => void sets.push(era) }
}

test('a server that crashes at start is not remembered as a 2025 server', async () => {
  const script = join(directory, 'crash-at-start.mjs')
  writeFileSync(script, "process.stdin.once('data', () => process.exit(1))\n")
  const eraCache = recordingCache()
  await expect(
    connect(
      { transport: 'stdio', command: process.execPath, args: [script] },
      { eraCache, connectTimeoutMs: 10_000 },
    ),
  ).rejects.toMatchObject({ code: expect.stringMatching(/connect_failed|server_exited|launch_failed/) })
  expect(eraCache.sets).toEqual([])
})

test('a 2025 server that exits on the probe and then initializes is remembered as one', async () => {
  const script = join(directory, 'exit-on-probe.mjs')
  // Exits on the probe once (a marker file says it did), then serves as the basic fixture does.
  const marker = join(directory, 'probed')
  writeFileSync(
    script,
    `import { existsSync, writeFileSync } from 'node:fs'
if (!existsSync(${JSON.stringify(marker)})) {
  process.stdin.once('data', () => { writeFileSync(${JSON.stringify(marker)}, ''); process.exit(1) })
} else {
  await import(${JSON.stringify(fixtureServers.basic)})
}
`,
  )
  const eraCache = recordingCache()
  const session = await connect(
    { transport: 'stdio', command: process.execPath, args: [script] },
    { eraCache, connectTimeoutMs: 10_000 },
  )
  try {
    expect(session.era).toBe('legacy')
    expect(eraCache.sets).toEqual(['legacy'])
  } finally {
    await session.close()
  }
})
