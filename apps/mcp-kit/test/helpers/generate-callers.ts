// What generate.test.ts compiles besides the generated modules: callers of those modules (each
// one's calls must compile under --strict, and `@ts-expect-error` lines must not), and the model of
// a hostile server whose module must compile with nothing it sends turned into code.

/** Programs using the generated modules, by file name (compiled together with the modules). */
export const callers: Record<string, string> = {
  'everything-caller.ts': `import { connect } from './everything.js'
const client = await connect()
try {
  const sum = await client.getSum({ a: 2, b: 3 })
  const echo = await client.echo({ message: 'hi' })
  const weather = await client.getStructuredContent({ location: 'Chicago' })
  const temperature: number = weather.temperature
  const conditions: string = weather.conditions
  const text = (content: typeof sum) => content.map((item) => (item.type === 'text' ? item.text : '')).join('')
  console.log(JSON.stringify({ sum: text(sum), echo: text(echo), temperature, conditions }))
} finally {
  await client.close()
}

// Compile-time checks only (never called): each line must fail to compile.
export function refused(client: Awaited<ReturnType<typeof connect>>) {
  // @ts-expect-error b is required
  void client.getSum({ a: 1 })
  // @ts-expect-error location is one of the three cities of the enum
  void client.getStructuredContent({ location: 'Paris' })
  // @ts-expect-error no such parameter
  void client.echo({ message: 'hi', loud: true })
  // @ts-expect-error a resource URI the server did not list
  void client.readResource('demo://nowhere')
}
`,
  'wrong.ts': `import { connect } from './everything.js'
const client = await connect()
await client.getSum({ a: '2', b: 3 })
`,
  'drift-caller.ts': `import { ClientError } from '@mcp-kit/client'
import { connect } from './drift.js'
try {
  const client = await connect()
  try {
    console.log(JSON.stringify(await client.search({ gene: 'BRAF' })))
  } finally {
    await client.close()
  }
} catch (error) {
  if (!ClientError.isInstance(error)) throw error
  console.error(\`\${error.code}: \${error.message}\`)
  process.exitCode = 5
}
`,
  'drift-warn.ts': `import { connect } from './drift.js'
const warnings: string[] = []
const client = await connect({ schemaValidation: 'warn', onWarning: (message) => warnings.push(message) })
try {
  const record = await client.lookup({ id: 7 })
  const id: number = record.id
  console.log(JSON.stringify({ warnings, lookup: record, id }))
} finally {
  await client.close()
}
`,
  'drift-breaking-caller.ts': `import { ClientError } from '@mcp-kit/client'
import { connect } from './drift-breaking.js'
const warnings: string[] = []
try {
  const client = await connect({ onWarning: (message) => warnings.push(message) })
  try {
    console.log(JSON.stringify({ warnings, search: await client.search({ gene: 'BRAF' }) }))
  } finally {
    await client.close()
  }
} catch (error) {
  if (!ClientError.isInstance(error)) throw error
  console.error(\`\${error.code}: \${error.message}\`)
  process.exitCode = 5
}
`,
  'secret-caller.ts': `import { ClientError } from '@mcp-kit/client'
import { connect } from './secret.js'
try {
  const client = await connect()
  try {
    const content = await client.getEnv()
    const text = content.map((item) => (item.type === 'text' ? item.text : '')).join('')
    console.log(JSON.stringify({ apiKey: JSON.parse(text).API_KEY ?? null }))
  } finally {
    await client.close()
  }
} catch (error) {
  if (!ClientError.isInstance(error)) throw error
  console.log(JSON.stringify({ code: error.code, message: error.message }))
}
`,
  'bio-caller.ts': `import { ClientError } from '@mcp-kit/client'
import { connect } from './bio.js'
const secret = process.env.BIO_SECRET
try {
  const client = await connect(secret === undefined ? {} : { variables: { 'secret:bio/token': secret } })
  try {
    const record: { variant: string; id: number } = await client.lookup({ id: 1 })
    console.log(JSON.stringify(record))
  } finally {
    await client.close()
  }
} catch (error) {
  if (!ClientError.isInstance(error)) throw error
  console.log(JSON.stringify({ code: error.code, message: error.message }))
}
`,
  'conformance-caller.ts': `import { ClientError } from '@mcp-kit/client'
import { connect } from './conformance.js'
const client = await connect()
try {
  const greeting = await client.greet({ name: 'Ada' })
  const failure: unknown = await client.testErrorHandling().then(() => undefined, (error: unknown) => error)
  const code = ClientError.isInstance(failure) ? failure.code : null
  console.log(JSON.stringify({ greeting, code }))
} finally {
  await client.close()
}
`,
  'small-modules.ts': `import * as filesystem from './filesystem.js'
import * as memory from './memory.js'
export async function listed(): Promise<string[]> {
  const files = await filesystem.connect()
  const graph = await memory.connect()
  const entries = await files.listDirectory({ path: '.' })
  const found = await graph.searchNodes({ query: 'x' })
  const names: string[] = (found.entities ?? []).map((entity) => entity.name ?? '')
  await Promise.all([files.close(), graph.close()])
  return [entries.content, ...names]
}
`,
  'hostile-caller.ts': `import { connect } from './hostile.js'
export async function use() {
  const client = await connect()
  await client.deleteTool({ 'a"b\\nc': 'x' })
  await client.closeTool()
  await client.getSum({})
  await client.getSum2({})
  await client.getSum3({})
  await client.thenTool()
  await client.proto()
  await client.readResource('it\\'s\`')
  await client.prompts.deleteTool({ "x'y": 'z' })
}
`,
}

/** A model no real server gives: names that collide, reserved words, and text that tries to escape. */
export const hostileModel = {
  server: { name: 'evil\nconsole.log("injected")', version: '1 */' },
  out: 'hostile.ts',
  generated: {
    source: 'mcp+npx://evil\n/* */',
    server: { transport: 'stdio' as const, command: 'true', args: [] },
    regenerate: 'mcp-kit generate x --out hostile.ts\nprocess.exit(1)',
    schemaHash: 'sha256:00',
    tools: [],
  },
  tools: [
    {
      name: 'delete',
      description: 'ends a comment */ declare const injected: 1 /*',
      inputSchema: {
        type: 'object',
        $id: 'https://example.com/x',
        properties: {
          'a"b\nc': { type: 'string', tsType: 'string; }; declare const injected: 1; interface X {' },
          remote: { $ref: 'https://example.com/schema.json' },
          file: { $ref: '/etc/passwd' },
          anchor: { $ref: '#anchor' },
          list: { type: 'array', items: { $ref: '#/$defs/Node' } },
          // Definitions named like the module's own types: renamed after their tool.
          owner: { $ref: '#/$defs/Client' },
          sum: { $ref: '#/$defs/GetSumArguments' },
          choice: { enum: ["x'; process.exit(1); '", 1, null], tsEnumNames: ['A */'] },
        },
        required: ['a"b\nc'],
        $defs: {
          Node: {
            type: 'object',
            properties: { next: { $ref: '#/$defs/Node' }, value: { type: 'integer' } },
          },
          Client: { type: 'string' },
          GetSumArguments: { type: 'object', properties: { a: { type: 'number' } } },
        },
      },
    },
    { name: 'close', inputSchema: { type: 'object' } },
    { name: 'get-sum', inputSchema: { type: 'object' } },
    { name: 'getSum', inputSchema: { type: 'object' } },
    { name: 'get_sum', inputSchema: { type: 'object' } },
    { name: 'then', inputSchema: { type: 'object' } },
    { name: '__proto__', inputSchema: { type: 'object' } },
  ],
  resources: {
    listed: [{ uri: "it's`", name: 'x' }],
    templates: [{ uriTemplate: 'x://`${a}`/{b}', name: 't' }],
  },
  prompts: [{ name: 'delete', description: '*/', arguments: [{ name: "x'y", required: true }] }],
}
