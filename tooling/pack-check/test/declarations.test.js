// The shipped declarations, as a user's tsc sees them with skipLibCheck: false under the strictest
// settings (type-check.js): each package's entry points on their own, the types the packages hand
// each other under exactOptionalPropertyTypes, and whether a README says @types/node is needed.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { knownDeclarationFailures, knownExchangeFailures } from './known-failures.js'
import { publishedPackages, root, typedEntryPoints } from './published.js'
import { createChecker, formatProblem } from './type-check.js'

const project = inject('project')
const typed = publishedPackages()
  .map((published) => ({ ...published, specifiers: typedEntryPoints(published) }))
  .filter((published) => published.specifiers.length > 0)

/** @type {ReturnType<typeof createChecker>} */
let checker
beforeAll(() => {
  checker = createChecker(project)
})

/** @param {string} name */
const slug = (name) => name.replace(/^@/, '').replaceAll('/', '-')

/** @type {Map<string, { problems: import('./type-check.js').Problem[], files: string[] }>} */
const checked = new Map()

/**
 * Checks a file that imports every entry point of a package (once per package and options).
 * @param {(typeof typed)[number]} published
 * @param {{ withoutNode?: boolean }} [options]
 */
function checkEntries(published, { withoutNode = false } = {}) {
  const directory = `declarations/${slug(published.name)}${withoutNode ? '-without-node' : ''}`
  const cached = checked.get(directory)
  if (cached) return cached
  mkdirSync(join(project, directory), { recursive: true })
  writeFileSync(
    join(project, directory, 'entry.ts'),
    published.specifiers
      .map((specifier, index) => `export * as entry${index} from '${specifier}'\n`)
      .join(''),
  )
  const result = checker.checkProgram(directory, {
    files: ['entry.ts'],
    compilerOptions: withoutNode ? { types: [] } : {},
  })
  checked.set(directory, result)
  return result
}

/** @param {import('./type-check.js').Problem[]} problems */
const codes = (problems) => problems.map((problem) => problem.code)

describe('the shipped declarations type-check with skipLibCheck: false', () => {
  for (const published of typed) {
    const known = knownDeclarationFailures[published.name]
    const title = `${published.name} (${published.specifiers.join(', ')})`
    it(known ? `${title} — KNOWN FAILURE: ${known.defect}` : title, () => {
      const { problems } = checkEntries(published)
      const listing = problems.map(formatProblem)
      if (known) {
        expect(
          codes(problems),
          `${published.name} is a known failure (${known.defect}); it now gives ${
            listing.length ? listing.join('\n') : 'no error: remove it from known-failures.js'
          }`,
        ).toEqual(known.codes)
      } else {
        expect(listing.join('\n'), `in the project: npx tsc -p declarations/${slug(published.name)}`).toBe('')
      }
    })
  }
})

// The phrase a README uses to say so (see the Install section of packages/client/README.md).
const needsNodePhrase = 'TypeScript users need `@types/node`'

describe('each README says @types/node is needed where the types need it', () => {
  for (const published of typed) {
    it(published.name, () => {
      // Without @types/node among the program's types, declarations that use Node's fail to
      // resolve, or pull it in themselves (`/// <reference types="node" />`, as undici's do).
      const withoutNode = checkEntries(published, { withoutNode: true })
      const needsNode =
        withoutNode.problems.length > checkEntries(published).problems.length ||
        withoutNode.files.some((file) => file.startsWith('node_modules/@types/node/'))
      const readme = readFileSync(join(root, published.readme), 'utf8')
      expect(readme.includes(needsNodePhrase), `${published.readme} says "${needsNodePhrase}"`).toBe(
        needsNode,
      )
    })
  }
})

// What one package returns and another takes, written as users combine them. Each file is
// checked on its own; `declare` stands for values a program would have.
const exchanges = {
  'a client tool list hashes and diffs with @mcp-kit/schema': `
    import type { Session } from '@mcp-kit/client'
    import { diffTools, hashTools } from '@mcp-kit/schema'
    declare const session: Session
    const tools = await session.listTools()
    hashTools(tools)
    diffTools(tools, await session.listTools())
  `,
  'a resolved @mcp-kit/profiles reference connects with @mcp-kit/client': `
    import { connect } from '@mcp-kit/client'
    import { resolveReference } from '@mcp-kit/profiles'
    const resolved = await resolveReference('mcp+npx://@modelcontextprotocol/server-everything')
    await connect(resolved.server)
  `,
  'a resolved @mcp-kit/profiles reference is a @mcp-kit/gateway upstream': `
    import { createGateway } from '@mcp-kit/gateway'
    import { resolveReference } from '@mcp-kit/profiles'
    const resolved = await resolveReference('mcp+npx://@modelcontextprotocol/server-everything')
    createGateway({ upstreams: [{ name: 'everything', server: resolved.server }] })
  `,
  'an in-process @mcp-kit/server tool list hashes with @mcp-kit/schema': `
    import { hashTools } from '@mcp-kit/schema'
    import { createRuntime, createToolRegistry } from '@mcp-kit/server'
    hashTools(await createRuntime(createToolRegistry()).listTools())
  `,
  'a tool handler gets its arguments typed from an inputSchema literal': `
    import { createToolRegistry } from '@mcp-kit/server'
    createToolRegistry().tool({
      name: 'shout',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } as const,
      handler: ({ text }) => text.toUpperCase(),
    })
  `,
  '@mcp-kit/openapi tools register in a @mcp-kit/server registry': `
    import { loadOpenApi, openApiTools } from '@mcp-kit/openapi'
    import { createToolRegistry } from '@mcp-kit/server'
    const registry = createToolRegistry()
    for (const tool of openApiTools(await loadOpenApi('openapi.json'))) registry.tool(tool.definition)
  `,
}

/** @type {import('./type-check.js').Problem[] | undefined} */
let exchangeProblems
const exchangeFile = (name) => `exchanges/${name.replace(/[^\w]+/g, '-')}.ts`

/** Checks every exchange in one program (each file is a module of its own). */
function checkExchanges() {
  if (exchangeProblems) return exchangeProblems
  mkdirSync(join(project, 'exchanges'), { recursive: true })
  for (const [name, source] of Object.entries(exchanges)) {
    writeFileSync(join(project, exchangeFile(name)), `${source.replace(/^ {4}/gm, '').trim()}\n`)
  }
  exchangeProblems = checker.check('exchanges', { include: ['*.ts'] })
  return exchangeProblems
}

describe('the packages exchange types under exactOptionalPropertyTypes', () => {
  for (const name of Object.keys(exchanges)) {
    const known = knownExchangeFailures[name]
    it(known ? `${name} — KNOWN FAILURE: ${known.defect}` : name, () => {
      const problems = checkExchanges().filter((problem) => problem.file === exchangeFile(name))
      const listing = problems.map(formatProblem)
      if (known) {
        expect(
          codes(problems),
          `a known failure (${known.defect}); it now gives ${
            listing.length ? listing.join('\n') : 'no error: remove it from known-failures.js'
          }`,
        ).toEqual(known.codes)
      } else {
        expect(listing.join('\n'), 'in the project: npx tsc -p exchanges').toBe('')
      }
    })
  }
})
