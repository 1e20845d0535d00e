// Hostile documents: `$ref`s that would read files outside the document's folder or other hosts
// (their content would be served in tools/list), YAML alias bombs and `$ref` fan-out that would
// hang start-up, and documents that grow past the size limit as they stream.

import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadOpenApi, OpenApiError } from '../../src/index.js'
import { startRecorder } from '../helpers/recorder.js'

const scratch = mkdtempSync(join(tmpdir(), 'openapi-documents-'))
const folder = join(scratch, 'api')
const secret = 'TOP-SECRET-CONTENT'

function document(ref: string) {
  return {
    openapi: '3.0.3',
    info: { title: 'refs', version: '1' },
    servers: [{ url: 'https://api.example.com' }],
    paths: {
      '/x': {
        get: {
          operationId: 'x',
          responses: {
            200: { description: 'ok', content: { 'application/json': { schema: { $ref: ref } } } },
          },
        },
      },
    },
  }
}

function writeDocument(name: string, ref: string): string {
  const path = join(folder, name)
  writeFileSync(path, JSON.stringify(document(ref)))
  return path
}

async function refusal(load: Promise<unknown>): Promise<string> {
  const error = await load.then(
    () => undefined,
    (failure: unknown) => failure,
  )
  expect(OpenApiError.isInstance(error), String(error)).toBe(true)
  expect((error as OpenApiError).code).toBe('invalid_spec')
  return (error as OpenApiError).message
}

beforeAll(() => {
  mkdirSync(join(folder, 'schemas'), { recursive: true })
  writeFileSync(join(scratch, 'secret.json'), JSON.stringify({ type: 'string', description: secret }))
  writeFileSync(join(folder, 'schemas', 'pet.json'), JSON.stringify({ type: 'object', description: 'a pet' }))
  symlinkSync(join(scratch, 'secret.json'), join(folder, 'schemas', 'link.json'))
})

afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('$refs to files', () => {
  it('read files in the document folder and below', async () => {
    const loaded = await loadOpenApi(writeDocument('beside.json', './schemas/pet.json'))
    expect(JSON.stringify(loaded.spec)).toContain('a pet')
  })

  it.each([
    ['../ out of the folder', '../secret.json', "outside the document's folder"],
    ['an absolute path', join(scratch, 'secret.json'), "outside the document's folder"],
    ['a file: URL', `file://${join(scratch, 'secret.json')}`, 'file: references are not read'],
    ['a link that leads out of the folder', './schemas/link.json', "outside the document's folder"],
    ['an encoded climb', './schemas/%2e%2e/%2e%2e/secret.json', "outside the document's folder"],
  ])('refuse %s, and nothing of it is read', async (_name, ref, said) => {
    const message = await refusal(loadOpenApi(writeDocument('attack.json', ref)))
    expect(message).toContain(said)
    expect(message).not.toContain(secret)
  })

  it('refuse any local file for a document given as an object', async () => {
    const message = await refusal(loadOpenApi(document(join(scratch, 'secret.json'))))
    expect(message).toContain('may not refer to local files')
  })
})

describe('$refs to URLs', () => {
  let elsewhere: Awaited<ReturnType<typeof startRecorder>>
  let home: Awaited<ReturnType<typeof startRecorder>>

  beforeAll(async () => {
    elsewhere = await startRecorder(() => ({ body: { type: 'string', description: secret } }))
    home = await startRecorder((request) =>
      request.url === '/api/openapi.json'
        ? { body: document('./schemas/pet.json') }
        : request.url === '/api/remote.json'
          ? { body: document(`${elsewhere.url}/secret.json`) }
          : request.url === '/api/climb.json'
            ? { body: document('../private.json') }
            : { body: { type: 'object', description: 'a pet' } },
    )
  })

  afterAll(async () => {
    await elsewhere.close()
    await home.close()
  })

  it('read documents beside a document from a URL', async () => {
    const loaded = await loadOpenApi(`${home.url}/api/openapi.json`)
    expect(JSON.stringify(loaded.spec)).toContain('a pet')
  })

  it('refuse other hosts and paths out of its folder unless remote references are allowed', async () => {
    expect(await refusal(loadOpenApi(`${home.url}/api/remote.json`))).toContain(
      'documents elsewhere than beside this one are not read (allow remote references to read it)',
    )
    expect(elsewhere.requests).toEqual([])
    expect(await refusal(loadOpenApi(`${home.url}/api/climb.json`))).toContain('/private.json')
    expect(home.requests.map((request) => request.url)).not.toContain('/private.json')
    const allowed = await loadOpenApi(`${home.url}/api/remote.json`, { allowRemoteRefs: true })
    expect(JSON.stringify(allowed.spec)).toContain(secret)
  })

  it('refuse remote references of a document file and of an object', async () => {
    const path = writeDocument('remote.json', `${elsewhere.url}/secret.json`)
    expect(await refusal(loadOpenApi(path))).toContain('are not read')
    expect(await refusal(loadOpenApi(document(`${elsewhere.url}/secret.json`)))).toContain('are not read')
    expect(elsewhere.requests).toHaveLength(1)
  })
})

describe('budgets', () => {
  it('refuse a YAML alias bomb at once', async () => {
    const levels = ['  a0: &a0 [x, x, x, x, x, x, x, x, x, x]']
    for (let level = 1; level < 9; level++) {
      levels.push(
        `  a${level}: &a${level} [${Array(10)
          .fill(`*a${level - 1}`)
          .join(', ')}]`,
      )
    }
    const path = join(folder, 'bomb.yaml')
    writeFileSync(
      path,
      ['openapi: 3.0.3', "info: {title: bomb, version: '1'}", 'x-bomb:', ...levels, 'paths: {}', ''].join(
        '\n',
      ),
    )
    expect(await refusal(loadOpenApi(path))).toContain('uses YAML aliases more than 100 times over')
  })

  it('refuse $ref fan-out before spelling it out', async () => {
    const schemas: Record<string, unknown> = {
      L0: {
        type: 'object',
        properties: Object.fromEntries([...Array(10)].map((_, i) => [`p${i}`, { type: 'string' }])),
      },
    }
    for (let level = 1; level < 12; level++) {
      schemas[`L${level}`] = {
        type: 'object',
        properties: Object.fromEntries(
          [...Array(10)].map((_, i) => [`p${i}`, { $ref: `#/components/schemas/L${level - 1}` }]),
        ),
      }
    }
    const fanout = { ...document('#/components/schemas/L11'), components: { schemas } }
    expect(await refusal(loadOpenApi(fanout))).toContain(
      'GET /x spells out to more than 500000 nodes once its $refs are followed',
    )
  })

  it('refuse a document nested deeper than any real one', async () => {
    let deep: unknown = 'bottom'
    for (let level = 0; level < 300; level++) deep = { deeper: deep }
    const path = join(folder, 'deep.json')
    writeFileSync(path, JSON.stringify({ ...document('#/x-deep'), 'x-deep': deep }))
    expect(await refusal(loadOpenApi(path))).toContain('nests deeper than 256 levels')
  })

  describe('a document that streams past the limit', () => {
    let server: Server
    let sent = 0
    let url = ''

    beforeAll(async () => {
      const chunk = Buffer.alloc(64 * 1024, 'x')
      // Chunked, no Content-Length, and no end: only the reader can stop it.
      server = createServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' })
        response.write('{"openapi":"3.0.3","x":"')
        const more = () => {
          while (!response.destroyed && response.write(chunk)) sent += chunk.length
          if (!response.destroyed) response.once('drain', more)
        }
        more()
      })
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/openapi.json`
    })

    afterAll(async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    })

    it('is refused once it passes 32 MiB, and the connection is dropped', async () => {
      const message = await refusal(loadOpenApi(url))
      expect(message).toBe(`${url} is larger than the 33554432 bytes a document may have`)
      expect(sent).toBeLessThan(48 * 1024 * 1024)
    })

    it('and at a smaller limit when asked', async () => {
      expect(await refusal(loadOpenApi(url, { maxBytes: 1024 * 1024 }))).toContain(
        'larger than the 1048576 bytes',
      )
    })
  })

  it('stop when the signal aborts, with its reason', async () => {
    const hanging = await startRecorder(() => ({ hang: true }))
    const controller = new AbortController()
    const loading = loadOpenApi(`${hanging.url}/openapi.json`, { signal: controller.signal })
    setTimeout(() => controller.abort(new Error('stopped by SIGTERM')), 50)
    await expect(loading).rejects.toThrow('stopped by SIGTERM')
    await hanging.close()
  })
})
