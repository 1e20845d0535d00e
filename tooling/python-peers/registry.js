// What `mcp-kit serve` offers the Python clients in the tests: a registry module (no dependencies:
// serve passes it @mcp-kit/server's exports). `whoami` reports what the server saw of the request
// (its protocol revision and the client's name), so a test checks both ends agree on the era;
// `delete_note` asks the client to confirm (2025: an elicitation request; 2026: input_required).
export default ({ createToolRegistry }) =>
  createToolRegistry()
    .tool({
      name: 'add',
      description: 'Adds two integers',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'integer' }, b: { type: 'integer' } },
        required: ['a', 'b'],
      },
      outputSchema: { type: 'object', properties: { sum: { type: 'integer' } }, required: ['sum'] },
      handler: ({ a, b }) => ({ sum: a + b }),
    })
    .tool({
      name: 'whoami',
      description: 'The protocol revision and client this request came with, as the server saw them',
      inputSchema: { type: 'object', properties: {} },
      handler: (_args, context) => ({
        protocolVersion: context.protocolVersion,
        client: context.clientInfo?.name ?? null,
      }),
    })
    .tool({
      name: 'delete_note',
      description: 'Deletes a note after the user confirms',
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      handler: async ({ id }, context) => {
        const answer = await context.elicit({
          message: `Delete note ${id}?`,
          requestedSchema: {
            type: 'object',
            properties: { confirm: { type: 'boolean' } },
            required: ['confirm'],
          },
        })
        return answer.action === 'accept' && answer.content?.confirm === true ? `deleted ${id}` : `kept ${id}`
      },
    })
    .resource({
      uri: 'notes://todo',
      name: 'todo',
      mimeType: 'text/markdown',
      read: () => '# TODO\n- talk to Python\n',
    })
    .prompt({
      name: 'summarize',
      description: 'Asks for a summary of a text',
      arguments: [{ name: 'text', description: 'What to summarize', required: true }],
      get: ({ text }) => `Summarize: ${text}`,
    })
