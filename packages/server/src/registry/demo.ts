// The bundled demo registry: what `mcp-kit serve` serves without a module, and the README's
// no-network default for `mcp-kit inspect @demo`.

import { createToolRegistry, type ToolRegistry } from './registry.js'

export function createDemoRegistry(): ToolRegistry {
  return createToolRegistry()
    .tool({
      name: 'echo',
      title: 'Echo',
      description: 'Returns the message it is given',
      inputSchema: {
        type: 'object',
        properties: { message: { type: 'string', description: 'Text to echo back' } },
        required: ['message'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
      handler: ({ message }) => String(message),
    })
    .tool({
      name: 'add',
      title: 'Add',
      description: 'Adds two numbers',
      inputSchema: {
        type: 'object',
        properties: {
          a: { type: 'number', description: 'First addend' },
          b: { type: 'number', description: 'Second addend' },
        },
        required: ['a', 'b'],
        additionalProperties: false,
      },
      outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
      annotations: { readOnlyHint: true, openWorldHint: false },
      handler: ({ a, b }) => ({ sum: Number(a) + Number(b) }),
    })
    .resource({
      uri: 'demo://readme',
      name: 'readme',
      title: 'About this server',
      description: 'What the demo server offers',
      mimeType: 'text/markdown',
      read: () => '# mcp-kit demo\n\nTools: `echo`, `add`. Prompt: `greet`.\n',
    })
    .prompt({
      name: 'greet',
      title: 'Greeting',
      description: 'Asks for a friendly greeting',
      arguments: [{ name: 'name', description: 'Who to greet', required: true }],
      get: ({ name }) => `Write a short, friendly greeting for ${name}.`,
    })
}
