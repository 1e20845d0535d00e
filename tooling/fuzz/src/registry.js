// The registry the fuzzer serves (`mcp-kit serve src/registry.js`): a little of everything a
// request can reach — tools with strict and loose schemas, `x-mcp-header` parameters, progress
// and log messages, questions to the client (elicitation, roots), failing and odd handlers, big
// and binary results, list changes; static, binary, failing and templated resources with
// completions; prompts. Handlers stay fast and bounded so that a slow answer means the server,
// not the registry. A default-exported function: `mcp-kit serve` hands it @mcp-kit/server.

/** Tool, resource and prompt names the case generator aims at (kept in step with the registry below). */
export const targets = {
  tools: [
    'echo',
    'add',
    'shapes',
    'routed',
    'progress',
    'ask',
    'roots',
    'fail',
    'odd',
    'big',
    'slow',
    'binary',
    'touch',
  ],
  resources: ['fuzz://readme', 'fuzz://blob', 'fuzz://failing', 'fuzz://cached', 'fuzz://items/42'],
  prompts: ['greet', 'summarize'],
}

const sleep = (milliseconds, signal) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, milliseconds)
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer)
        reject(signal.reason ?? new Error('cancelled'))
      },
      { once: true },
    )
  })

/** @param {typeof import('@mcp-kit/server')} server */
export default function createFuzzRegistry({ createToolRegistry }) {
  const registry = createToolRegistry()
  let touches = 0
  return registry
    .tool({
      name: 'echo',
      description: 'Returns the message it is given',
      inputSchema: {
        type: 'object',
        properties: { message: { type: 'string' } },
        required: ['message'],
        additionalProperties: false,
      },
      handler: ({ message }) => String(message),
    })
    .tool({
      name: 'add',
      description: 'Adds two numbers',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      },
      outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
      handler: ({ a, b }) => ({ sum: Number(a) + Number(b) }),
    })
    .tool({
      name: 'shapes',
      description: 'A schema with most JSON Schema features',
      inputSchema: {
        type: 'object',
        properties: {
          count: { type: 'integer', minimum: 0, maximum: 100 },
          tags: { type: 'array', items: { enum: ['a', 'b', 'c'] }, maxItems: 5, uniqueItems: true },
          nested: {
            type: 'object',
            properties: {
              deep: { type: 'object', properties: { word: { type: 'string', pattern: '^[a-z]+$' } } },
            },
          },
          choice: { oneOf: [{ type: 'string', maxLength: 10 }, { type: 'integer' }] },
          ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
          flag: { type: 'boolean' },
          anything: {},
        },
        required: ['count'],
        additionalProperties: false,
      },
      handler: (args) => ({ received: Object.keys(args).sort() }),
    })
    .tool({
      name: 'routed',
      description: 'Parameters mirrored in Mcp-Param-* headers (2026-07-28)',
      inputSchema: {
        type: 'object',
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          priority: { type: 'integer', 'x-mcp-header': 'Priority' },
          dry: { type: 'boolean', 'x-mcp-header': 'Dry' },
          note: { type: 'string' },
        },
        required: ['region'],
      },
      handler: ({ region, priority, dry }) => `${region}/${priority ?? '-'}/${dry ?? '-'}`,
    })
    .tool({
      name: 'progress',
      description: 'Reports progress and log messages before answering',
      inputSchema: { type: 'object', properties: { steps: { type: 'integer', minimum: 0, maximum: 5 } } },
      handler: async ({ steps = 2 }, context) => {
        for (let step = 1; step <= steps; step += 1) {
          await context.progress(step, steps, `step ${step}`)
          await context.log('info', { step })
        }
        return `${steps} steps`
      },
    })
    .tool({
      name: 'ask',
      description: 'Asks the client for input (elicitation)',
      inputSchema: { type: 'object', properties: { question: { type: 'string' } } },
      handler: async ({ question = 'Your name?' }, context) => {
        const answer = await context.elicit({
          message: String(question),
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        })
        return `${answer.action}: ${JSON.stringify(answer.content ?? null)}`
      },
    })
    .tool({
      name: 'roots',
      description: "Lists the client's roots",
      handler: async (_args, context) => {
        const { roots } = await context.listRoots()
        return { count: Array.isArray(roots) ? roots.length : 0 }
      },
    })
    .tool({
      name: 'fail',
      description: 'Throws an Error',
      handler: () => {
        throw new Error('the tool failed on purpose')
      },
    })
    .tool({
      name: 'odd',
      description: 'Throws what is not an Error, or returns odd values',
      inputSchema: { type: 'object', properties: { kind: { type: 'integer' } } },
      handler: ({ kind = 0 }) => {
        switch (Number(kind) % 6) {
          case 0:
            throw null
          case 1:
            throw { code: 42, stack: 'not a real stack' }
          case 2:
            return undefined
          case 3:
            return [1, 'two', { three: 3 }]
          case 4:
            return { content: 'not an array' }
          default:
            return Number.NaN
        }
      },
    })
    .tool({
      name: 'big',
      description: 'Returns a text of the given size (at most 1 MiB)',
      inputSchema: {
        type: 'object',
        properties: { bytes: { type: 'integer', minimum: 0, maximum: 1048576 } },
      },
      handler: ({ bytes = 1000 }) => 'x'.repeat(Number(bytes)),
    })
    .tool({
      name: 'slow',
      description: 'Answers after a short wait (at most 300 ms), or when cancelled',
      inputSchema: { type: 'object', properties: { ms: { type: 'integer', minimum: 0, maximum: 300 } } },
      handler: async ({ ms = 50 }, context) => {
        await sleep(Number(ms), context.signal)
        return 'done'
      },
    })
    .tool({
      name: 'binary',
      description: 'Returns an image content item',
      handler: () => ({
        content: [
          { type: 'image', mimeType: 'image/png', data: Buffer.from([137, 80, 78, 71]).toString('base64') },
        ],
      }),
    })
    .tool({
      name: 'touch',
      description: 'Changes the resource fuzz://cached and says the prompt list changed',
      handler: () => {
        touches += 1
        registry.resourceUpdated('fuzz://cached')
        registry.listChanged('prompts')
        return { touches }
      },
    })
    .resource({
      uri: 'fuzz://readme',
      name: 'readme',
      mimeType: 'text/markdown',
      read: () => '# fuzz registry\n',
    })
    .resource({
      uri: 'fuzz://blob',
      name: 'blob',
      mimeType: 'application/octet-stream',
      read: () => new Uint8Array([0, 1, 2, 253, 254, 255]),
    })
    .resource({
      uri: 'fuzz://failing',
      name: 'failing',
      read: () => {
        throw new Error('the resource failed on purpose')
      },
    })
    .resource({
      uri: 'fuzz://cached',
      name: 'cached',
      ttlMs: 1000,
      cacheScope: 'public',
      read: () => `touched ${touches} times`,
    })
    .resourceTemplate({
      uriTemplate: 'fuzz://items/{id}',
      name: 'item',
      read: (uri, variables) => JSON.stringify({ uri, id: variables.id }),
      complete: { id: (value) => ['1', '2', '42', '100'].filter((id) => id.startsWith(value)) },
    })
    .prompt({
      name: 'greet',
      description: 'A greeting',
      arguments: [{ name: 'name', required: true }],
      get: ({ name }) => `Say hello to ${name}.`,
    })
    .prompt({
      name: 'summarize',
      description: 'A summary in a style',
      arguments: [
        { name: 'text', required: true },
        {
          name: 'style',
          complete: (value) => ['short', 'long', 'bullet'].filter((style) => style.startsWith(value)),
        },
      ],
      get: ({ text, style = 'short' }) => [
        { role: 'user', content: { type: 'text', text: `${style}: ${text}` } },
      ],
    })
}
