// The doc test: every TypeScript example of every published package's README, compiled as a
// user's own file in the packed project under the strictest settings (type-check.js), and run
// with node where the README shows what it prints (conventions in readme-blocks.js). Also: no
// JavaScript examples are left, and each README names every export of its package's public entry
// points, and of its `./internal` entry (in a line of its own section: those are not public API).

import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { knownExampleFailures } from './known-failures.js'
import { internalEntryPoint, publicEntryPoints, publishedPackages, root } from './published.js'
import { exampleFileName, fencedBlocks, proseOf, typeScriptExamples } from './readme-blocks.js'
import { createChecker } from './type-check.js'

const run = promisify(execFile)
const project = inject('project')
const readmes = publishedPackages()
  .filter((published) => existsSync(join(root, published.readme)))
  .map((published) => {
    const markdown = readFileSync(join(root, published.readme), 'utf8')
    return { ...published, markdown, examples: typeScriptExamples(markdown) }
  })

/** @param {{ directory: string }} readme */
const slug = (readme) => readme.directory.replaceAll('/', '-')
/** @param {{ directory: string }} readme @param {import('./readme-blocks.js').Example} example */
const examplePath = (readme, example) => `examples/${slug(readme)}/${exampleFileName(example)}`

/** @type {ReturnType<typeof createChecker>} */
let checker
/** @type {import('./type-check.js').Problem[]} */
let problems

beforeAll(() => {
  checker = createChecker(project)
  for (const readme of readmes) {
    for (const example of readme.examples) {
      const path = join(project, examplePath(readme, example))
      mkdirSync(dirname(path), { recursive: true })
      writeFileSync(path, example.code)
      const runnable = join(project, 'run', slug(readme), exampleFileName(example).replace(/\.ts$/, '.js'))
      mkdirSync(dirname(runnable), { recursive: true })
      writeFileSync(runnable, checker.transpile(example.code))
    }
  }
  problems = checker.check('examples', { include: ['**/*.ts'] })
  const unplaced = problems.filter((problem) => problem.file === undefined)
  if (unplaced.length > 0)
    throw new Error(`the examples' tsconfig: ${unplaced.map((p) => p.message).join('; ')}`)
})

for (const readme of readmes) {
  describe(readme.readme, () => {
    it('has no JavaScript examples: they are TypeScript, so that they are compiled', () => {
      const javascript = fencedBlocks(readme.markdown)
        .filter((block) => ['js', 'javascript', 'mjs', 'cjs', 'jsx'].includes(block.language))
        .map((block) => `${readme.readme}:${block.line - 1} is a \`\`\`${block.language} block`)
      expect(javascript.join('\n')).toBe('')
    })

    for (const example of readme.examples) {
      const key = `${readme.readme}#${example.index}`
      const known = knownExampleFailures[key]
      const title = `example ${example.index} (line ${example.line - 1}) compiles under the strictest settings`
      it(known ? `${title} — KNOWN FAILURE: ${known.defect}` : title, () => {
        const file = examplePath(readme, example)
        const own = problems
          .filter((problem) => problem.file === file)
          .map(
            (problem) =>
              `${readme.readme}:${example.line + problem.line - 1}:${problem.column} ${problem.code}: ${problem.message}`,
          )
        if (known) {
          expect(
            own.map((line) => /\b(TS\d+):/.exec(line)?.[1]),
            `${key} is a known failure (${known.defect}) expected to fail with ${known.codes.join(', ')}; ` +
              `it now gives ${own.length ? own.join('\n') : 'no error: remove it from known-failures.js'}`,
          ).toEqual(known.codes)
        } else {
          expect(own.join('\n'), `${key} (in the project: npx tsc -p examples)`).toBe('')
        }
      })

      if (example.prints === undefined) continue
      it(`example ${example.index} prints what the README shows`, async () => {
        const directory = join(project, 'run', slug(readme))
        const file = join(directory, exampleFileName(example).replace(/\.ts$/, '.js'))
        const { stdout } = await run(process.execPath, [file], {
          cwd: directory,
          timeout: 60_000,
          // The client remembers servers' protocol eras: not in the user's own cache.
          env: { ...process.env, MCP_KIT_CACHE_DIR: mkdtempSync(join(tmpdir(), 'mcp-kit-doc-cache-')) },
        })
        expect(stdout.trimEnd()).toBe((example.prints ?? '').trimEnd())
      }, 90_000)
    }

    const specifiers = publicEntryPoints(readme)
    if (specifiers.length > 0) {
      it('names every public export (in code: `name`)', () => {
        const mentioned = new Set(codeIdentifiers(readme.markdown))
        const missing = checker.exportedNames(specifiers).filter((name) => !mentioned.has(name))
        expect(missing.join(', '), `exports of ${readme.name} that ${readme.readme} does not name`).toBe('')
      })
    }

    const internal = internalEntryPoint(readme)
    if (internal === undefined) return
    it(`names every export of ${internal} in its section "Internal entry"`, () => {
      const section = /^## Internal entry\b[^\n]*\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(readme.markdown)?.[1]
      expect(section, `${readme.readme} has a section "## Internal entry (\`${internal}\`)"`).toBeDefined()
      const mentioned = new Set(codeIdentifiers(section ?? ''))
      const missing = checker.exportedNames([internal]).filter((name) => !mentioned.has(name))
      expect(missing.join(', '), `exports of ${internal} that its section does not name`).toBe('')
    })
  })
}

/** Identifiers written as code (inline code spans and fenced blocks) in a Markdown text. @param {string} markdown */
function codeIdentifiers(markdown) {
  const code = [
    ...fencedBlocks(markdown).map((block) => block.code),
    // A code span may run over a line break, not over a blank line.
    ...[...proseOf(markdown).matchAll(/`((?:[^`\n]|\n(?!\s*\n))+)`/g)].map((match) => match[1] ?? ''),
  ]
  return code.flatMap((text) => text.match(/[A-Za-z_$][\w$]*/g) ?? [])
}
