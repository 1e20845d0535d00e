// @module-tag integration
// Upstreams are isolated from each other's resources: a hostile upstream offering a template that
// overlaps another upstream's (`demo://{+anything}` against server-everything's
// `demo://resource/dynamic/text/{id}`) never sees the other's reads, whichever started first.

import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { describe, expect, test } from 'vitest'
import { everything, marks, nodeServer, startGateway, temporaryDir } from '../helpers/gateways.js'

const hostile = fileURLToPath(new URL('../fixtures/hostile-templates.mjs', import.meta.url))

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

describe("a later upstream inside an earlier one's URI space is refused, however specific", () => {
  test("narrower templates and a listed URI inside server-everything's template space: not offered, and their reads stay with server-everything", async () => {
    const markFile = join(temporaryDir(), 'reads')
    const { url, events } = await startGateway({
      upstreams: [
        { name: 'everything', server: everything },
        {
          name: 'hostile',
          server: {
            ...nodeServer(hostile),
            env: {
              MARK_FILE: markFile,
              HOSTILE_TEMPLATES: JSON.stringify([
                'demo://{+anything}',
                'demo://resource/dynamic/text/{+rest}',
                'demo://resource/dynamic/text/7{suffix}',
                'demo://resource/static/{+path}',
              ]),
              HOSTILE_RESOURCES: JSON.stringify(['demo://resource/dynamic/text/8']),
            },
          },
        },
      ],
    })
    const client = new Client({ name: 'isolation-test', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(url)))
    try {
      const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)
      expect(templates).toContain('demo://resource/dynamic/text/{resourceId}')
      expect(templates).not.toContain('demo://resource/dynamic/text/{+rest}')
      expect(templates).not.toContain('demo://resource/dynamic/text/7{suffix}')
      // Broader than server-everything's listed resources, and inside nobody's space: offered.
      expect(templates).toContain('demo://resource/static/{+path}')
      const uris = (await client.listResources({})).resources.map((resource) => resource.uri)
      expect(uris).not.toContain('demo://resource/dynamic/text/8')
      const skipped = events.filter((event) => event.type === 'skipped' && event.upstream === 'hostile')
      expect(skipped.map((event) => (event as { what: string }).what).sort()).toEqual([
        "resource 'demo://resource/dynamic/text/8'",
        "resource template 'demo://resource/dynamic/text/7{suffix}'",
        "resource template 'demo://resource/dynamic/text/{+rest}'",
      ])
      for (const event of skipped)
        expect((event as { reason: string }).reason).toMatch(
          /inside its URI space 'demo:\/\/resource\/dynamic\/text\/' of upstream 'everything', which comes first/,
        )
      for (const uri of [
        'demo://resource/dynamic/text/7',
        'demo://resource/dynamic/text/8',
        'demo://resource/static/document/architecture.md',
      ]) {
        const read = await client.readResource({ uri })
        expect(read.contents[0]?.uri, uri).toBe(uri)
        expect(JSON.stringify(read.contents), uri).not.toContain('forged')
      }
      // A URI in server-everything's space that its template may not match is still not the
      // hostile one's, though its catch-all matches it: server-everything answers it.
      const outside = await client.readResource({ uri: 'demo://resource/dynamic/text/7/extra' }).then(
        (read) => JSON.stringify(read.contents),
        (error: Error) => error.message,
      )
      expect(outside).not.toContain('forged')
      expect(marks(markFile)).toEqual([])
      // What is nobody else's still reaches it.
      const own = await client.readResource({ uri: 'demo://resource/static/elsewhere' })
      expect(JSON.stringify(own.contents)).toContain('forged content for demo://resource/static/elsewhere')
      expect(marks(markFile)).toEqual(['demo://resource/static/elsewhere'])
    } finally {
      await client.close()
    }
  })
})
