// @module-tag integration
// `mcp-kit ui`'s guards, over plain HTTP: the per-launch token (URL once, then an HttpOnly cookie),
// Host and Origin checks, the CSP on every answer, no file outside the assets, precompressed assets;
// and secrets masked wherever the page shows a server.

import { request } from 'node:http'
import { fixtureServers } from '@mcp-kit/fixtures'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../../helpers/helpers.js'
import { type RunningUi, startUi } from '../../helpers/ui-harness.js'

let ui: RunningUi

beforeAll(async () => {
  ui = await startUi()
}, 60_000)

afterAll(() => ui?.stop())

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}

/** A raw request, so that Host, Origin and the path go out exactly as written. */
function send(
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port: ui.port,
        path,
        method,
        headers: { host: `127.0.0.1:${ui.port}`, ...headers },
      },
      (incoming) => {
        const chunks: Buffer[] = []
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
        incoming.on('end', () =>
          resolve({
            status: incoming.statusCode ?? 0,
            headers: incoming.headers,
            body: Buffer.concat(chunks),
          }),
        )
      },
    )
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}

const cookie = () => `mcp-kit-ui-${ui.port}=${ui.token}`

describe('who may talk to the workspace', () => {
  it('the token in the URL becomes an HttpOnly cookie (the page then drops it from its address); without it, nothing', async () => {
    const login = await send(`/?token=${ui.token}`)
    expect(login.status).toBe(200)
    expect(login.headers['cache-control']).toBe('no-store')
    expect(String(login.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Strict/)
    expect(login.body.toString()).toContain('<div id="app">')
    expect((await send(`/api/state?token=${ui.token}`)).status).toBe(404)
    expect((await send('/')).status).toBe(401)
    expect((await send('/api/state')).status).toBe(401)
    expect((await send('/?token=wrong')).status).toBe(401)
    expect((await send('/api/state', { cookie: `mcp-kit-ui-${ui.port}=wrong` })).status).toBe(401)
    expect((await send('/api/state', { cookie: cookie() })).status).toBe(200)
  })

  it('refuses other Hosts (DNS rebinding) and other Origins, and a change without an Origin', async () => {
    expect((await send('/api/state', { cookie: cookie(), host: `evil.example:${ui.port}` })).status).toBe(403)
    expect((await send('/api/state', { cookie: cookie(), origin: 'http://evil.example' })).status).toBe(403)
    const add = JSON.stringify({ target: 'node -e 1' })
    const json = { cookie: cookie(), 'content-type': 'application/json' }
    expect((await send('/api/servers', json, 'POST', add)).status).toBe(403)
    expect((await send('/api/servers', { ...json, origin: 'http://evil.example' }, 'POST', add)).status).toBe(
      403,
    )
    const state = JSON.parse((await send('/api/state', { cookie: cookie() })).body.toString()) as {
      servers: unknown[]
    }
    expect(state.servers).toEqual([])
  })

  it('every answer has the CSP; no path reaches a file outside the assets; assets come precompressed', async () => {
    const page = await send('/', { cookie: cookie(), 'accept-encoding': 'br, gzip' })
    expect(page.headers['content-security-policy']).toMatch(
      /default-src 'self'; script-src 'self'; style-src 'self'/,
    )
    expect(page.headers['content-security-policy']).toMatch(/connect-src 'self'/)
    expect(page.headers['content-encoding']).toBe('br')
    for (const path of [
      '/../package.json',
      '/%2e%2e/package.json',
      '/assets/../../package.json',
      '/index.html.br',
    ]) {
      expect((await send(path, { cookie: cookie() })).status, path).toBe(404)
    }
    const html = (await send('/', { cookie: cookie() })).body.toString()
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/)
    const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1] as string
    const gzip = await send(`/${script}`, { cookie: cookie(), 'accept-encoding': 'gzip' })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(gzip.headers['cache-control']).toMatch(/immutable/)
    expect((await send(`/${script}`, { cookie: cookie() })).headers['content-encoding']).toBeUndefined()
  })
})

describe('--host', () => {
  it("an address other than loopback's warns, and its Host is served; a bad --port is a usage error", async () => {
    const other = await startUi(['--host', '127.0.0.2'])
    try {
      expect(other.stderr()).toMatch(/warning: --host 127\.0\.0\.2 lets other machines reach this workspace/)
      expect(other.origin).toBe(`http://127.0.0.2:${other.port}`)
      const answer = await fetch(`${other.origin}/api/state`, {
        headers: { cookie: `mcp-kit-ui-${other.port}=${other.token}` },
      })
      expect(answer.status).toBe(200)
    } finally {
      await other.stop()
    }
    expect(ui.stderr()).not.toMatch(/warning/)
    const bad = await runCli(['ui', '--no-open', '--port', '70000'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/--port 70000/)
  })
})

describe('a desktop config imported', () => {
  it('adds each of its servers, connected, and names the entries it skipped', async () => {
    const headers = { cookie: cookie(), origin: ui.origin, 'content-type': 'application/json' }
    const config = JSON.stringify({
      mcpServers: {
        basic: { command: 'node', args: [fixtureServers.basic] },
        broken: { args: ['no command'] },
      },
    })
    const answer = await send('/api/servers/import', headers, 'POST', JSON.stringify({ text: config }))
    expect(answer.status).toBe(200)
    const result = JSON.parse(answer.body.toString()) as { added: string[]; skipped: Array<{ name: string }> }
    expect(result.added).toHaveLength(1)
    expect(result.skipped.map((entry) => entry.name)).toEqual(['broken'])
    let state: { servers: Array<{ id: string; name: string; state: string }> } = { servers: [] }
    for (let attempt = 0; attempt < 100; attempt++) {
      state = JSON.parse((await send('/api/state', { cookie: cookie() })).body.toString())
      if (state.servers.find((server) => server.id === result.added[0])?.state !== 'connecting') break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(state.servers.find((server) => server.id === result.added[0])).toMatchObject({
      name: 'basic',
      state: 'connected',
    })
  })
})

describe('secrets', () => {
  it('environment values in a reference never reach the page, its timeline or its commands', async () => {
    const secret = 'sk-live-0123456789abcdefXYZ'
    const headers = { cookie: cookie(), origin: ui.origin, 'content-type': 'application/json' }
    const target = `mcp+node://${fixtureServers.basic}?env.API_TOKEN=${secret}`
    const added = await send('/api/servers', headers, 'POST', JSON.stringify({ target }))
    expect(added.status).toBe(200)
    const server = JSON.parse(added.body.toString()) as { id: string; state: string; reference: string }
    expect(server.state).toBe('connected')
    expect(server.reference).toContain('env.API_TOKEN=•••')
    const command = await send(
      `/api/servers/${server.id}/command`,
      headers,
      'POST',
      JSON.stringify({ action: { kind: 'call', tool: 'echo', args: { message: 'x' } } }),
    )
    const everything = [
      (await send('/api/state', { cookie: cookie() })).body.toString(),
      (await send('/api/timeline', { cookie: cookie() })).body.toString(),
      (await send('/api/timeline.ndjson', { cookie: cookie() })).body.toString(),
      command.body.toString(),
    ].join('\n')
    expect(everything).toContain('API_TOKEN')
    expect(everything).not.toContain(secret)
  })
})
