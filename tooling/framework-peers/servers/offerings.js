// What every framework server here offers, written once: the tool, resource and prompt each one
// registers in its own framework's way, and how a server script is told its transport.

/** `add(a, b)` answers the sum as text. */
export const addTool = {
  name: 'add',
  description: 'Adds two numbers',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number', description: 'first' }, b: { type: 'number', description: 'second' } },
    required: ['a', 'b'],
  },
  sum: ({ a, b }) => String(a + b),
}

/**
 * A text resource that names the framework. Its URI names the framework and transport too: one
 * gateway fronts every server of the matrix, and refuses two upstreams offering one URI.
 */
export const greetingResource = {
  uri: (framework, transport) => `peer://${framework}/${transport.kind}/greeting`,
  name: 'greeting',
  mimeType: 'text/plain',
  text: (framework) => `hello from ${framework}`,
}

/** `greet(name)`: one user message. */
export const greetPrompt = {
  name: 'greet',
  description: 'Greets someone',
  argument: { name: 'name', description: 'Who to greet', required: true },
  text: ({ name }) => `Hello, ${name}!`,
}

/**
 * The transport a server script was asked for: `--http --port N` (Streamable HTTP at
 * http://127.0.0.1:N/mcp), else stdio.
 */
export function transportFromArgs(argv = process.argv) {
  if (!argv.includes('--http')) return { kind: 'stdio' }
  const port = Number(argv[argv.indexOf('--port') + 1])
  if (!Number.isInteger(port) || port <= 0) throw new Error('--http needs --port N')
  return { kind: 'http', port, host: '127.0.0.1', path: '/mcp' }
}
