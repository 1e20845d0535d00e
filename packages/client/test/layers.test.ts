// The client's layers (docs/architecture.md "Layers"): which folder of src/ may import which,
// read from the source (@mcp-kit/vitest-config/layers), so that a dependency against the grain
// fails here.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  checkLayers,
  importsOf,
  type LayerRules,
  sourceFiles,
  unmirroredTests,
} from '@mcp-kit/vitest-config/layers'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const src = fileURLToPath(new URL('../src/', import.meta.url))
const test = fileURLToPath(new URL('.', import.meta.url))

/**
 * The folders of src/ and what each may import besides itself and the shared files at the top
 * (errors.ts, server-spec.ts). Lowest first; a new folder takes a place here.
 */
const rules: LayerRules = {
  layers: {
    protocol: [],
    http: ['protocol'],
    stdio: ['protocol'],
    auth: ['http'],
    session: ['protocol'],
    connect: ['protocol', 'http', 'stdio', 'auth', 'session'],
    'typed-clients': ['protocol', 'session', 'connect'],
  },
  // A session reports its stdio server's process.
  typeLayers: { session: ['stdio'] },
}

/** What would make protocol/ a transport: spawning, sockets, HTTP. */
const transportModules = ['node:child_process', 'node:http', 'node:https', 'node:net', 'undici']

/** protocol/'s imports of a transport, one line each. */
function transports(files: Map<string, string>): string[] {
  return [...files]
    .filter(([file]) => file.startsWith('protocol/'))
    .flatMap(([file, text]) => importsOf(ts, file, text))
    .filter(({ specifier }) => transportModules.includes(specifier))
    .map(({ file, specifier }) => `${file} imports ${specifier}: protocol/ is no transport`)
}

const files = sourceFiles(src)
const report = checkLayers(ts, src, rules, files)

describe('the layers of src/', () => {
  it('few files at the top, every folder one of the layers', () => {
    expect([...files.keys()].filter((file) => !file.includes('/')).length).toBeLessThanOrEqual(12)
    expect(report.unplaced).toEqual([])
  })

  it('each folder imports only the folders below it; protocol/ no transport', () => {
    expect(report.violations).toEqual([])
    expect(transports(files)).toEqual([])
  })

  it('no cycle between folders, nor between files (type-only imports included)', () => {
    expect(report.folderCycles).toEqual([])
    expect(report.fileCycles).toEqual([])
  })

  it('an import against the grain is caught', () => {
    const check = (file: string, text: string) => {
      const one = new Map([[file, text]])
      for (const target of [
        'stdio/process-transport.ts',
        'session/session.ts',
        'connect/connect.ts',
        'internal.ts',
      ])
        one.set(target, '')
      return [...checkLayers(ts, src, rules, one).violations, ...transports(one)]
    }
    expect(
      check('http/example.ts', "import { ProcessTransport } from '../stdio/process-transport.js'"),
    ).toEqual(['http/example.ts imports ../stdio/process-transport.js: http/ may not import stdio/'])
    expect(check('protocol/example.ts', "const spawn = await import('node:child_process')")).toEqual([
      'protocol/example.ts imports node:child_process: protocol/ is no transport',
    ])
    expect(
      check('session/example.ts', "import { ProcessTransport } from '../stdio/process-transport.js'"),
    ).toEqual(['session/example.ts imports ../stdio/process-transport.js: session/ may not import stdio/'])
    expect(
      check('session/example.ts', "import type { ProcessTransport } from '../stdio/process-transport.js'"),
    ).toEqual([])
    expect(check('errors.ts', "import type { Session } from './session/session.js'")).toEqual([
      'errors.ts imports ./session/session.js: the shared files at the top import no folder',
    ])
    expect(check('internal.ts', "export { connect } from './connect/connect.js'")).toEqual([])
    expect(check('session/example.ts', "import { processRunning } from '../internal.js'")).toEqual([
      'session/example.ts imports ../internal.js: no file imports an entry (index.ts, internal.ts)',
    ])
  })
})

describe('test/ mirrors src/', () => {
  it('every folder of test/ is a folder of src/ (or helpers/, types/), and helpers sit in helpers/', () => {
    expect(unmirroredTests(src, test)).toEqual([])
  })

  it('a folder or a helper out of place is caught', () => {
    const root = mkdtempSync(join(tmpdir(), 'client-layers-'))
    try {
      for (const folder of ['src/http', 'test/http/__snapshots__', 'test/helpers', 'test/transports'])
        mkdirSync(join(root, folder), { recursive: true })
      for (const file of [
        'test/http/ok.test.ts',
        'test/helpers/raw.ts',
        'test/raw-http.ts',
        'test/transports/x.test.ts',
      ])
        writeFileSync(join(root, file), '')
      expect(unmirroredTests(join(root, 'src'), join(root, 'test')).sort()).toEqual([
        'test/raw-http.ts is no test: what tests share goes to test/helpers/',
        'test/transports/ is no folder of src/',
      ])
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
