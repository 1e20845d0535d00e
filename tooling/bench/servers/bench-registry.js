// The registry module `mcp-kit serve` runs in the 2026-07-28 rows: the same tools, resource and
// prompt as anchors/sdk-v2-http-server.js, written the way the root README shows (a function of
// @mcp-kit/server's exports, so the module needs no dependencies). `echo_task` is for the store
// rows only (the anchor has no tasks): it always runs as a task and finishes at once, so a task's
// round trip measures the task store, not the tool.

export default ({ createToolRegistry }) =>
  createToolRegistry()
    .tool({
      name: 'echo',
      description: 'Returns the message it is given',
      inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
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
      handler: ({ a, b }) => ({ sum: a + b }),
    })
    .tool({
      name: 'echo_task',
      description: 'Returns the message it is given, as a task',
      inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
      taskSupport: 'required',
      handler: ({ message }) => String(message),
    })
    .tool({
      name: 'wait',
      description: 'Answers after the given number of milliseconds',
      inputSchema: {
        type: 'object',
        properties: { ms: { type: 'integer', minimum: 0, maximum: 60_000 } },
        required: ['ms'],
      },
      handler: async ({ ms }) => {
        await new Promise((resolve) => setTimeout(resolve, ms))
        return `waited ${ms} ms`
      },
    })
    .resource({
      uri: 'bench://readme',
      name: 'readme',
      description: 'What this server offers',
      mimeType: 'text/markdown',
      read: () => '# bench\n\nTools: echo, add, wait.\n',
    })
    .prompt({
      name: 'greet',
      description: 'Asks for a friendly greeting',
      arguments: [{ name: 'name', required: true }],
      get: ({ name }) => `Write a short greeting for ${name}.`,
    })
