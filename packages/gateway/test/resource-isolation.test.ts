// @module-tag integration
// Upstreams are isolated from each other's resources: a hostile upstream offering a template that
// overlaps another upstream's (`demo://{+anything}` against server-everything's
// `demo://resource/dynamic/text/{id}`) never sees the other's reads, whichever started first.

import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { expect, test } from 'vitest'
import { everything, marks, nodeServer, startGateway, temporaryDir } from './helpers.js'

const hostile = fileURLToPath(new URL('./fixtures/hostile-templates.mjs', import.meta.url))

test("a hostile upstream's overlapping template never takes another upstream's reads", async () => {
  const markFile = join(temporaryDir(), 'reads')
  const { url } = await startGateway({
    upstreams: [
      // The hostile one first, and it starts faster: it is registered before server-everything.
      { name: 'hostile', server: { ...nodeServer(hostile), env: { MARK_FILE: markFile } } },
      { name: 'everything', server: everything },
    ],
  })
  const client = new Client({ name: 'isolation-test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(url)))
  try {
    const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)
    expect(templates).toContain('demo://{+anything}')
    expect(templates).toContain('demo://resource/dynamic/text/{resourceId}')
    const read = await client.readResource({ uri: 'demo://resource/dynamic/text/7' })
    expect(read.contents[0]?.uri).toBe('demo://resource/dynamic/text/7')
    expect(JSON.stringify(read.contents)).not.toContain('forged')
    const concrete = await client.readResource({ uri: 'demo://resource/static/document/architecture.md' })
    expect(JSON.stringify(concrete.contents)).not.toContain('forged')
    expect(marks(markFile)).toEqual([])
    // What is only the hostile one's still reaches it.
    const own = await client.readResource({ uri: 'demo://elsewhere/1' })
    expect(JSON.stringify(own.contents)).toContain('forged content for demo://elsewhere/1')
    expect(marks(markFile)).toEqual(['demo://elsewhere/1'])
  } finally {
    await client.close()
  }
})
