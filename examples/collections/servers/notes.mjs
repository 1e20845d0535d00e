// A small notes server for the example collections, served by `mcp-kit serve` (2026-07-28, or
// 2025-11-25 to older clients): tools with output schemas, a question before deleting, a task,
// a resource and a prompt. The notes live in memory, for as long as the server runs.

export default ({ createToolRegistry }) => {
  const notes = new Map()
  let next = 1
  const note = {
    type: 'object',
    properties: {
      id: { type: 'string' },
      title: { type: 'string' },
      body: { type: 'string' },
      createdAt: { type: 'string' },
    },
    required: ['id', 'title', 'body', 'createdAt'],
  }
  return createToolRegistry()
    .tool({
      name: 'add_note',
      description: 'Adds a note',
      inputSchema: {
        type: 'object',
        properties: { title: { type: 'string' }, body: { type: 'string' } },
        required: ['title'],
        additionalProperties: false,
      },
      outputSchema: note,
      handler: ({ title, body = '' }) => {
        const id = `note-${next++}`
        notes.set(id, { id, title, body, createdAt: new Date().toISOString() })
        return notes.get(id)
      },
    })
    .tool({
      name: 'get_note',
      description: 'One note by its id',
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      outputSchema: note,
      handler: ({ id }) => {
        const found = notes.get(id)
        if (found === undefined) return { content: [{ type: 'text', text: `no note ${id}` }], isError: true }
        return found
      },
    })
    .tool({
      name: 'delete_note',
      description: 'Deletes a note, once you confirm',
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      handler: async ({ id }, context) => {
        const answer = await context.elicit({
          message: `Delete ${id}?`,
          requestedSchema: {
            type: 'object',
            properties: { confirm: { type: 'boolean', title: 'Delete it' } },
            required: ['confirm'],
          },
        })
        if (answer.action !== 'accept' || answer.content?.confirm !== true) return `kept ${id}`
        return notes.delete(id) ? `deleted ${id}` : `no note ${id}`
      },
    })
    .tool({
      name: 'summarize',
      description: 'Summarizes every note (runs as a task)',
      taskSupport: 'optional',
      outputSchema: {
        type: 'object',
        properties: { count: { type: 'integer' }, titles: { type: 'array', items: { type: 'string' } } },
        required: ['count', 'titles'],
      },
      handler: async (_args, context) => {
        await context.startTask()
        await context.progress(1, 2, 'reading the notes')
        await new Promise((resolve) => setTimeout(resolve, 100))
        await context.progress(2, 2, 'writing the summary')
        return { count: notes.size, titles: [...notes.values()].map((item) => item.title) }
      },
    })
    .resource({
      uri: 'notes://index',
      name: 'index',
      mimeType: 'application/json',
      read: () => JSON.stringify([...notes.keys()]),
    })
    .prompt({
      name: 'review',
      description: 'Asks for a review of a note',
      arguments: [{ name: 'id', required: true }],
      get: ({ id }) => `Review the note ${id}: ${notes.get(id)?.title ?? '(missing)'}`,
    })
}
