// A registry implementing every server scenario of the official MCP conformance suite
// (@modelcontextprotocol/conformance 0.2.0-alpha.12, revisions 2025-11-25 and 2026-07-28), with
// the names and payloads the suite expects. Served by
// `mcp-kit serve tooling/conformance/everything.js --port N`. Everything goes through
// @mcp-kit/server's public API: nothing here talks to the SDK. The same handlers serve both
// eras: a question (`context.elicit`, `sample`, `listRoots`, `ask`) is a server-to-client
// request under 2025-11-25 and an `input_required` round under 2026-07-28.

import { createToolRegistry, RpcFailure } from '@mcp-kit/server'

// A 1×1 red PNG and a tiny WAV file, as in the suite's reference server.
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='
const wav = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA='

const noArguments = { type: 'object', properties: {} }
const sleep = (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds))
/** Waits, or rejects as soon as `signal` aborts (a cancelled task stops at once). */
const pause = (milliseconds, signal) =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason)
    const timer = setTimeout(resolve, milliseconds)
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer)
        reject(signal.reason)
      },
      { once: true },
    )
  })

const nameForm = {
  message: 'What is your name?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
}

export default function createConformanceRegistry() {
  const registry = createToolRegistry()
  return (
    registry
      // 2026-07-28 multi round-trip requests (input-required-result-*): the keys are the suite's
      .tool({
        name: 'test_input_required_result_elicitation',
        description: 'Asks for a name, then greets',
        inputSchema: noArguments,
        handler: async (_args, context) => {
          const answer = await context.elicit(nameForm, { key: 'user_name' })
          return `Hello, ${answer.content?.name ?? 'stranger'}!`
        },
      })
      .tool({
        name: 'test_input_required_result_sampling',
        description: "Asks the client's model a question",
        inputSchema: noArguments,
        handler: async (_args, context) => {
          const answer = await context.sample(
            {
              messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
              maxTokens: 100,
            },
            { key: 'sample_request' },
          )
          const content = Array.isArray(answer.content) ? answer.content[0] : answer.content
          return `Sampling result: ${content?.type === 'text' ? content.text : 'no response'}`
        },
      })
      .tool({
        name: 'test_input_required_result_list_roots',
        description: "Asks for the client's roots",
        inputSchema: noArguments,
        handler: async (_args, context) => {
          const answer = await context.listRoots({ key: 'roots_request' })
          return `Found ${answer.roots.length} root(s)`
        },
      })
      .tool({
        name: 'test_input_required_result_request_state',
        description: 'Asks for a confirmation; the round is carried in requestState',
        inputSchema: noArguments,
        handler: async (_args, context) => {
          const answer = await context.elicit(
            {
              message: 'Please confirm',
              requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
            },
            { key: 'confirm' },
          )
          return answer.content?.ok === true ? 'state-ok: requestState validated' : 'not confirmed'
        },
      })
      .tool({
        name: 'test_input_required_result_multiple_inputs',
        description: 'Asks three questions in one round',
        inputSchema: noArguments,
        handler: async (_args, context) => {
          const answers = await context.ask({
            user_name: { method: 'elicitation/create', params: nameForm },
            greeting: {
              method: 'sampling/createMessage',
              params: {
                messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }],
                maxTokens: 50,
              },
            },
            client_roots: { method: 'roots/list' },
          })
          const greeting = answers.greeting.content
          return `Name: ${answers.user_name.content?.name}; Greeting: ${greeting?.type === 'text' ? greeting.text : 'Hello there!'}; Roots: ${answers.client_roots.roots.length}`
        },
      })
      .tool({
        name: 'test_input_required_result_multi_round',
        description: 'Asks two questions, one round each',
        inputSchema: noArguments,
        handler: async (_args, context) => {
          const name = await context.elicit(
            { ...nameForm, message: 'Step 1: What is your name?' },
            { key: 'step1' },
          )
          const color = await context.elicit(
            {
              message: 'Step 2: What is your favorite color?',
              requestedSchema: {
                type: 'object',
                properties: { color: { type: 'string' } },
                required: ['color'],
              },
            },
            { key: 'step2' },
          )
          return `${name.content?.name}'s favorite color is ${color.content?.color}`
        },
      })
      .tool({
        name: 'test_input_required_result_tampered_state',
        description: 'Asks for a confirmation (the requestState is signed)',
        inputSchema: noArguments,
        handler: async (_args, context) => {
          const answer = await context.elicit(
            {
              message: 'Please confirm',
              requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
            },
            { key: 'confirm' },
          )
          return `confirmed: ${answer.content?.ok === true}`
        },
      })
      .tool({
        name: 'test_input_required_result_capabilities',
        description: 'Asks only what the client can answer',
        inputSchema: noArguments,
        handler: async (_args, context) => {
          const capabilities = context.clientCapabilities ?? {}
          const requests = {}
          if (capabilities.elicitation) {
            requests.elicit_input = {
              method: 'elicitation/create',
              params: {
                message: 'Elicitation input',
                requestedSchema: {
                  type: 'object',
                  properties: { value: { type: 'string' } },
                  required: ['value'],
                },
              },
            }
          }
          if (capabilities.sampling) {
            requests.sample_input = {
              method: 'sampling/createMessage',
              params: {
                messages: [{ role: 'user', content: { type: 'text', text: 'Sample request' } }],
                maxTokens: 50,
              },
            }
          }
          if (Object.keys(requests).length === 0) return 'No supported capabilities declared'
          const answers = await context.ask(requests)
          return `capabilities-ok: received ${Object.keys(answers).join(',')}`
        },
      })
      // server-stateless diagnostics
      .tool({
        name: 'test_missing_capability',
        description: 'Needs the client to declare sampling',
        inputSchema: noArguments,
        handler: (_args, context) => {
          context.requireCapabilities({ sampling: {} })
          return 'Success'
        },
      })
      .tool({
        name: 'test_streaming_elicitation',
        description: 'Streams progress before its result',
        inputSchema: noArguments,
        handler: async (_args, context) => {
          await context.progress(50, 100, 'half way')
          return 'Streaming complete'
        },
      })
      .tool({
        name: 'test_logging_tool',
        description: 'Logs one message (sent only when the request asked for a log level)',
        inputSchema: noArguments,
        handler: async (_args, context) => {
          await context.log('info', 'Diagnostic trace logging activated')
          return 'Logging evaluated'
        },
      })
      .tool({
        name: 'test_trigger_tool_change',
        description: 'Says the tool list changed',
        inputSchema: noArguments,
        handler: () => {
          registry.listChanged('tools')
          return 'Mutation triggered'
        },
      })
      .tool({
        name: 'test_trigger_prompt_change',
        description: 'Says the prompt list changed',
        inputSchema: noArguments,
        handler: () => {
          registry.listChanged('prompts')
          return 'Mutation triggered'
        },
      })
      // The io.modelcontextprotocol/tasks extension (tasks-*): the fixtures the scenarios name
      .tool({
        name: 'greet',
        description: 'Greets at once (never a task)',
        inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        handler: ({ name }) => `Hello, ${name}!`,
      })
      .tool({
        name: 'slow_compute',
        description: 'Works for `seconds` seconds, as a task when the client follows tasks',
        inputSchema: {
          type: 'object',
          properties: { seconds: { type: 'number', minimum: 0 }, label: { type: 'string' } },
          required: ['seconds'],
        },
        taskSupport: 'optional',
        handler: async ({ seconds, label }, context) => {
          await pause(seconds * 1000, context.signal)
          return `computed ${label ?? 'result'} in ${seconds}s`
        },
      })
      .tool({
        name: 'failing_job',
        description: 'Fails as a tool after a second (only as a task)',
        inputSchema: noArguments,
        taskSupport: 'required',
        handler: async (_args, context) => {
          await pause(1000, context.signal)
          throw new Error('the job failed')
        },
      })
      .tool({
        name: 'protocol_error_job',
        description: 'Fails with a JSON-RPC error (a protocol-level failure)',
        inputSchema: noArguments,
        taskSupport: 'optional',
        handler: async (_args, context) => {
          await pause(200, context.signal)
          throw new RpcFailure(-32603, 'the job broke down')
        },
      })
      .tool({
        name: 'confirm_delete',
        description: 'Asks for a confirmation while it runs as a task',
        inputSchema: { type: 'object', properties: { filename: { type: 'string' } } },
        taskSupport: 'optional',
        handler: async ({ filename }, context) => {
          const answer = await context.elicit(
            {
              message: `Delete ${filename ?? 'the file'}?`,
              requestedSchema: {
                type: 'object',
                properties: { confirm: { type: 'boolean' } },
                required: ['confirm'],
              },
            },
            { key: 'confirm' },
          )
          return answer.action === 'accept' && answer.content?.confirm === true
            ? `deleted ${filename}`
            : 'kept'
        },
      })
      .tool({
        name: 'multi_input',
        description: 'Asks two questions at once while it runs as a task',
        inputSchema: noArguments,
        taskSupport: 'optional',
        handler: async (_args, context) => {
          const [first, second] = await Promise.all([
            context.elicit(nameForm, { key: 'first' }),
            context.elicit(nameForm, { key: 'second' }),
          ])
          return `got ${first.content?.name} and ${second.content?.name}`
        },
      })
      .tool({
        name: 'test_tool_with_task',
        description: 'Asks for a name in the request, then works on as a task',
        inputSchema: noArguments,
        taskSupport: 'required',
        taskStart: 'handler',
        handler: async (_args, context) => {
          const answer = await context.elicit(nameForm, { key: 'user_name' })
          await context.startTask()
          await pause(300, context.signal)
          return `Hello, ${answer.content?.name ?? 'stranger'}!`
        },
      })
      // http-custom-header-server-validation: a parameter mirrored into Mcp-Param-Region
      .tool({
        name: 'test_header_routing',
        description: 'Echoes the region it would route to',
        inputSchema: {
          type: 'object',
          properties: {
            region: { type: 'string', description: 'Where to run', 'x-mcp-header': 'Region' },
            query: { type: 'string' },
          },
          required: ['region'],
        },
        handler: ({ region }) => `routed to ${region}`,
      })
      .prompt({
        name: 'test_input_required_result_prompt',
        description: 'A prompt that asks for context first',
        get: async (_args, context) => {
          const answer = await context.elicit(
            {
              message: 'What context should the prompt use?',
              requestedSchema: {
                type: 'object',
                properties: { context: { type: 'string' } },
                required: ['context'],
              },
            },
            { key: 'user_context' },
          )
          return `Use this context: ${answer.content?.context}`
        },
      })
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
              $anchor: 'addressDef',
              type: 'object',
              properties: { street: { type: 'string' }, city: { type: 'string' } },
            },
          },
          properties: {
            name: { type: 'string' },
            address: { $ref: '#/$defs/address' },
            contactMethod: { type: 'string', enum: ['phone', 'email'] },
            phone: { type: 'string' },
            email: { type: 'string' },
          },
          allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
          if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
          // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else, not a promise
          then: { required: ['phone'] },
          else: { required: ['email'] },
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
