// A server whose tools change with $CATALOG_VERSION (1 or 2), for the drift example: version 2
// retypes a parameter, makes a new one required and adds a tool.

export default ({ createToolRegistry }) => {
  const v2 = process.env.CATALOG_VERSION === '2'
  return createToolRegistry()
    .tool({
      name: 'search',
      description: 'Searches the catalog',
      inputSchema: {
        type: 'object',
        properties: { query: { type: 'string' }, limit: { type: 'integer' } },
        required: v2 ? ['query', 'limit'] : ['query'],
      },
      handler: ({ query }) => `results for ${query}`,
    })
    .tool({
      name: 'lookup',
      description: 'One item by its id',
      inputSchema: {
        type: 'object',
        properties: { id: { type: v2 ? 'string' : 'integer' } },
        required: ['id'],
      },
      handler: ({ id }) => `item ${id}`,
    })
    .tool(
      v2
        ? { name: 'export', description: 'Exports the catalog', handler: () => 'exported' }
        : { name: 'count', description: 'How many items', handler: () => '3' },
    )
}
