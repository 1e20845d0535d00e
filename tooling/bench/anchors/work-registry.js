// A registry module for the gateway rows: `echo` answers after 20 ms of (simulated) work, as a
// server that does something would; `mcp-kit serve anchors/work-registry.js` serves it.

export default ({ createToolRegistry }) =>
  createToolRegistry().tool({
    name: 'echo',
    inputSchema: { type: 'object', properties: { message: { type: 'string' } } },
    handler: async ({ message }) => {
      await new Promise((resolve) => setTimeout(resolve, 20))
      return String(message)
    },
  })
