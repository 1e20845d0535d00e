// A registry implementing every server scenario of the official MCP conformance suite
// (@modelcontextprotocol/conformance 0.1.16, `--suite all`), with the names and payloads the
// suite expects. Served by `mcp-kit serve tooling/conformance/everything.js --port N`.
// Everything goes through @mcp-kit/server's public API: nothing here talks to the SDK.

import { createToolRegistry } from '@mcp-kit/server'

// A 1×1 red PNG and a tiny WAV file, as in the suite's reference server.
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='
const wav = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA='

const noArguments = { type: 'object', properties: {} }
const sleep = (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds))

export default function createConformanceRegistry() {
  return (
    createToolRegistry()
      // tools-call-*
      .tool({
        name: 'test_simple_text',
        description: 'Returns a simple text response',
        inputSchema: noArguments,
        handler: () => 'This is a simple text response for testing.',
      })
      .tool({
        name: 'test_image_content',
        description: 'Returns an image (1×1 PNG)',
        inputSchema: noArguments,
        handler: () => ({ content: [{ type: 'image', data: png, mimeType: 'image/png' }] }),
      })
      .tool({
        name: 'test_audio_content',
        description: 'Returns audio (a short WAV)',
        inputSchema: noArguments,
        handler: () => ({ content: [{ type: 'audio', data: wav, mimeType: 'audio/wav' }] }),
      })
      .tool({
        name: 'test_embedded_resource',
        description: 'Returns an embedded resource',
        inputSchema: noArguments,
        handler: () => ({
          content: [
            {
              type: 'resource',
              resource: {
                uri: 'test://embedded-resource',
                mimeType: 'text/plain',
                text: 'This is an embedded resource content.',
              },
            },
          ],
        }),
      })
      .tool({
        name: 'test_multiple_content_types',
        description: 'Returns text, an image and an embedded resource',
        inputSchema: noArguments,
        handler: () => ({
          content: [
            { type: 'text', text: 'Multiple content types test:' },
            { type: 'image', data: png, mimeType: 'image/png' },
            {
              type: 'resource',
              resource: {
                uri: 'test://mixed-content-resource',
                mimeType: 'application/json',
                text: JSON.stringify({ test: 'data', value: 123 }),
              },
            },
          ],
        }),
      })
      .tool({
        name: 'test_tool_with_logging',
        description: 'Sends three log messages while it runs',
        inputSchema: noArguments,
        handler: async (_args, context) => {
          await context.log('info', 'Tool execution started')
          await sleep(50)
          await context.log('info', 'Tool processing data')
          await sleep(50)
          await context.log('info', 'Tool execution completed')
          return 'Tool with logging executed successfully'
        },
      })
      .tool({
        name: 'test_tool_with_progress',
        description: 'Reports progress 0, 50 and 100 of 100',
        inputSchema: noArguments,
        handler: async (_args, context) => {
          for (const [step, progress] of [0, 50, 100].entries()) {
            if (step > 0) await sleep(50)
            await context.progress(progress, 100, `Completed step ${progress} of 100`)
          }
          return 'Progress test completed'
        },
      })
      .tool({
        name: 'test_error_handling',
        description: 'Always fails (the failure is an isError result, not a protocol error)',
        inputSchema: noArguments,
        handler: () => {
          throw new Error('This tool intentionally returns an error for testing')
        },
      })
      .tool({
        name: 'test_reconnection',
        description: 'Closes its SSE stream mid-call; the client resumes with Last-Event-ID (SEP-1699)',
        inputSchema: noArguments,
        handler: async (_args, context) => {
          context.closeStream()
          await sleep(100)
          return 'Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.'
        },
      })
      .tool({
        name: 'test_sampling',
        description: "Asks the client's model to answer a prompt",
        inputSchema: {
          type: 'object',
          properties: { prompt: { type: 'string', description: 'The prompt to send' } },
          required: ['prompt'],
        },
        handler: async ({ prompt }, context) => {
          const answer = await context.sample({
            messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
            maxTokens: 100,
          })
          const content = Array.isArray(answer.content) ? answer.content[0] : answer.content
          return `LLM response: ${content?.type === 'text' ? content.text : JSON.stringify(content)}`
        },
      })
      .tool({
        name: 'test_elicitation',
        description: 'Asks the user for a username and an email address',
        inputSchema: {
          type: 'object',
          properties: { message: { type: 'string', description: 'What to ask the user' } },
          required: ['message'],
        },
        handler: async ({ message }, context) => {
          const answer = await context.elicit({
            message,
            requestedSchema: {
              type: 'object',
              properties: {
                username: { type: 'string', description: "User's response" },
                email: { type: 'string', description: "User's email address" },
              },
              required: ['username', 'email'],
            },
          })
          return `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`
        },
      })
      .tool({
        name: 'test_elicitation_sep1034_defaults',
        description: 'Elicitation with default values for every primitive type (SEP-1034)',
        inputSchema: noArguments,
        handler: async (_args, context) => {
          const answer = await context.elicit({
            message: 'Please review and update the form fields with defaults',
            requestedSchema: {
              type: 'object',
              properties: {
                name: { type: 'string', description: 'User name', default: 'John Doe' },
                age: { type: 'integer', description: 'User age', default: 30 },
                score: { type: 'number', description: 'User score', default: 95.5 },
                status: {
                  type: 'string',
                  description: 'User status',
                  enum: ['active', 'inactive', 'pending'],
                  default: 'active',
                },
                verified: { type: 'boolean', description: 'Verification status', default: true },
              },
              required: [],
            },
          })
          return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`
        },
      })
      .tool({
        name: 'test_elicitation_sep1330_enums',
        description: 'Elicitation with every enum form (SEP-1330)',
        inputSchema: noArguments,
        handler: async (_args, context) => {
          const answer = await context.elicit({
            message: 'Please select options from the enum fields',
            requestedSchema: {
              type: 'object',
              properties: {
                untitledSingle: {
                  type: 'string',
                  description: 'Select one option',
                  enum: ['option1', 'option2', 'option3'],
                },
                titledSingle: {
                  type: 'string',
                  description: 'Select one option with titles',
                  oneOf: [
                    { const: 'value1', title: 'First Option' },
                    { const: 'value2', title: 'Second Option' },
                    { const: 'value3', title: 'Third Option' },
                  ],
                },
                legacyEnum: {
                  type: 'string',
                  description: 'Select one option (legacy)',
                  enum: ['opt1', 'opt2', 'opt3'],
                  enumNames: ['Option One', 'Option Two', 'Option Three'],
                },
                untitledMulti: {
                  type: 'array',
                  description: 'Select multiple options',
                  minItems: 1,
                  maxItems: 3,
                  items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
                },
                titledMulti: {
                  type: 'array',
                  description: 'Select multiple options with titles',
                  minItems: 1,
                  maxItems: 3,
                  items: {
                    anyOf: [
                      { const: 'value1', title: 'First Choice' },
                      { const: 'value2', title: 'Second Choice' },
                      { const: 'value3', title: 'Third Choice' },
                    ],
                  },
                },
              },
              required: [],
            },
          })
          return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`
        },
      })
      // json-schema-2020-12: the schema must reach the client verbatim
      .tool({
        name: 'json_schema_2020_12_tool',
        description: 'Tool with JSON Schema 2020-12 features',
        inputSchema: {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          $defs: {
            address: {
              type: 'object',
              properties: { street: { type: 'string' }, city: { type: 'string' } },
            },
          },
          properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
          additionalProperties: false,
        },
        handler: (args) => `JSON Schema 2020-12 tool called with ${JSON.stringify(args)}`,
      })
      // resources-*
      .resource({
        uri: 'test://static-text',
        name: 'static-text',
        description: 'A static text resource',
        mimeType: 'text/plain',
        read: () => 'This is the content of the static text resource.',
      })
      .resource({
        uri: 'test://static-binary',
        name: 'static-binary',
        description: 'A static binary resource (a PNG image)',
        mimeType: 'image/png',
        read: () => Buffer.from(png, 'base64'),
      })
      .resource({
        uri: 'test://watched-resource',
        name: 'watched-resource',
        description: 'A resource clients can subscribe to',
        mimeType: 'text/plain',
        read: () => 'Watched resource content',
      })
      .resourceTemplate({
        uriTemplate: 'test://template/{id}/data',
        name: 'template',
        description: 'A templated resource: data for an id',
        mimeType: 'application/json',
        read: (_uri, { id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
      })
      // prompts-* and completion-complete
      .prompt({
        name: 'test_simple_prompt',
        description: 'A prompt without arguments',
        get: () => 'This is a simple prompt for testing.',
      })
      .prompt({
        name: 'test_prompt_with_arguments',
        description: 'A prompt with two required arguments',
        arguments: [
          { name: 'arg1', description: 'First test argument', required: true, complete: completeWords },
          { name: 'arg2', description: 'Second test argument', required: true, complete: completeWords },
        ],
        get: ({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
      })
      .prompt({
        name: 'test_prompt_with_embedded_resource',
        description: 'A prompt that embeds a resource',
        arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
        get: ({ resourceUri }) => [
          {
            role: 'user',
            content: {
              type: 'resource',
              resource: {
                uri: resourceUri,
                mimeType: 'text/plain',
                text: 'Embedded resource content for testing.',
              },
            },
          },
          { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
        ],
      })
      .prompt({
        name: 'test_prompt_with_image',
        description: 'A prompt with an image',
        get: () => [
          { role: 'user', content: { type: 'image', data: png, mimeType: 'image/png' } },
          { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
        ],
      })
  )
}

function completeWords(value) {
  return ['test', 'testing', 'testValue1', 'testValue2'].filter((word) => word.startsWith(value))
}
