// @module-tag integration
// `mcp-kit serve <module>` loads a registry module whatever its form: ES module or CommonJS,
// whatever the nearest package.json says, and TypeScript where Node strips types — and the
// README's example works wherever it is pasted. Each module is served over stdio and called
// through the CLI, as a desktop client would launch it.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { node22Path } from '@mcp-kit/fixtures'
import { afterAll, describe, expect, it } from 'vitest'
import { binPath, records, runCli } from '../../helpers/helpers.js'

const scratch = mkdtempSync(join(tmpdir(), 'mcp-kit-registry-module-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** A directory with this package.json `type` (or none), holding these files. */
function project(
  name: string,
  type: 'commonjs' | 'module' | undefined,
  files: Record<string, string>,
): string {
  const directory = join(scratch, name)
  mkdirSync(directory)
  if (type !== undefined) writeFileSync(join(directory, 'package.json'), JSON.stringify({ name, type }))
  for (const [file, source] of Object.entries(files)) writeFileSync(join(directory, file), source)
  return directory
}

/** Serves `module` over stdio (with `node`) and calls `tool` through the CLI. */
function callServed(
  directory: string,
  module: string,
  tool: string,
  args: string[] = [],
  node = process.execPath,
) {
  return runCli(['cat', '--tool', tool, ...args, '--', node, binPath, 'serve', module, '--stdio'], {
    cwd: directory,
  })
}

const registry = (text: string) =>
  `({ createToolRegistry }) => createToolRegistry().tool({ name: 'hello', description: 'Says hello', handler: () => ${JSON.stringify(text)} })`

describe('registry modules of every form', () => {
  const commonjs = project('commonjs-project', 'commonjs', {
    'esm.js': `import { text } from './helper.js'\nexport default ({ createToolRegistry }) => createToolRegistry().tool({ name: 'hello', description: 'Says hello', handler: () => text })\n`,
    'helper.js': `export const text = 'esm .js in a commonjs package'\n`,
    'common.js': `module.exports = ${registry('commonjs .js')}\n`,
    'common.cjs': `module.exports = ${registry('.cjs')}\n`,
    'compiled.cjs': `'use strict'\nObject.defineProperty(exports, '__esModule', { value: true })\nexports.default = ${registry('compiled from ESM')}\n`,
    'module.mjs': `export default ${registry('.mjs')}\n`,
    'typed.ts': `import type { ToolRegistry } from '@mcp-kit/server'\ninterface Api { createToolRegistry: () => ToolRegistry }\nconst greeting: string = 'typescript'\nexport default ({ createToolRegistry }: Api): ToolRegistry => createToolRegistry().tool({ name: 'hello', description: 'Says hello', handler: (): string => greeting })\n`,
  })

  it.each([
    ['esm.js', 'esm .js in a commonjs package'],
    ['common.js', 'commonjs .js'],
    ['common.cjs', '.cjs'],
    ['compiled.cjs', 'compiled from ESM'],
    ['module.mjs', '.mjs'],
  ])('%s in a "type": "commonjs" package', async (module, text) => {
    const result = await callServed(commonjs, module, 'hello')
    expect(result.stderr).toBe('')
    expect(records(result.stdout)).toEqual([{ type: 'text', text }])
  })

  it('an ES module .js in a "type": "module" package, and CommonJS .cjs beside it', async () => {
    const esm = project('module-project', 'module', {
      'tools.js': `export default ${registry('esm .js in a module package')}\n`,
      'tools.cjs': `module.exports = ${registry('.cjs in a module package')}\n`,
    })
    expect(records((await callServed(esm, 'tools.js', 'hello')).stdout)).toEqual([
      { type: 'text', text: 'esm .js in a module package' },
    ])
    expect(records((await callServed(esm, 'tools.cjs', 'hello')).stdout)).toEqual([
      { type: 'text', text: '.cjs in a module package' },
    ])
  })

  // CI runs Node 20; on a Node that strips types this case cannot happen.
  const stripsTypes = Boolean((process.features as { typescript?: unknown }).typescript)
  it.skipIf(stripsTypes)(
    `TypeScript on Node ${process.versions.node}: a clear error naming the Node version needed`,
    async () => {
      const result = await runCli(['serve', 'typed.ts', '--stdio'], { cwd: commonjs })
      expect(result.code).toBe(2)
      expect(result.stderr).toBe(
        `mcp-kit: cannot load typed.ts: TypeScript modules need a Node that strips types, 22.18 or later (22.6 to 22.17 with NODE_OPTIONS=--experimental-strip-types); this is Node ${process.versions.node}. Run mcp-kit with a newer Node, or compile the module to JavaScript\n`,
      )
    },
  )

  it('TypeScript on Node 22 (types stripped), in a "type": "commonjs" package', async () => {
    const result = await callServed(commonjs, 'typed.ts', 'hello', [], node22Path)
    expect(records(result.stdout)).toEqual([{ type: 'text', text: 'typescript' }])
  })

  it('a module that is neither form still fails with its own syntax error, exit 2', async () => {
    const broken = project('broken', 'commonjs', {
      'broken.js': 'export default ({ createToolRegistry }) =>\n',
    })
    const result = await runCli(['serve', 'broken.js', '--stdio'], { cwd: broken })
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/^mcp-kit: cannot load broken\.js: Unexpected (end of input|token)/)
  })
})

describe("the README's registry example works wherever it is pasted", () => {
  const readme = readFileSync(new URL('../../../../../README.md', import.meta.url), 'utf8')
  const example = /```js\n(\/\/ tools\.js\n[\s\S]*?)```/.exec(readme)?.[1]

  it.each([
    ['a "type": "commonjs" package', 'commonjs'],
    ['a "type": "module" package', 'module'],
    ['a directory with no package.json', undefined],
  ] as const)('in %s', async (_where, type) => {
    expect(example).toBeDefined()
    const directory = project(`readme-${type ?? 'none'}`, type, { 'tools.js': example as string })
    const result = await callServed(directory, 'tools.js', 'word_count', ['text=the quick brown fox'])
    expect(result.stderr).toBe('')
    expect(records(result.stdout)).toEqual([{ words: 4 }])
  })
})
