// One MCP protocol server (the SDK's Server) for one session, answering from a ToolRegistry.
// Never shared between clients: each session gets its own.

import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js'
import type { HandlerContext, ToolRegistry } from './registry.js'
import { toCallToolResult, toGetPromptResult, toReadResourceResult } from './tool-output.js'

export interface ProtocolServerOptions {
  name?: string
  version?: string
  instructions?: string
}

type Extra = Parameters<Parameters<Server['setRequestHandler']>[1]>[1]

function contextFrom(server: Server, extra: Extra): HandlerContext {
  const progressToken = extra._meta?.progressToken
  return {
    signal: extra.signal,
    sessionId: extra.sessionId,
    async progress(progress, total, message) {
      if (progressToken === undefined) return
      await extra.sendNotification({
        method: 'notifications/progress',
        params: { progressToken, progress, total, message },
      })
    },
    async log(level, data) {
      await server.sendLoggingMessage({ level, data }, extra.sessionId)
    },
  }
}

export function createProtocolServer(registry: ToolRegistry, options: ProtocolServerOptions = {}): Server {
  const server = new Server(
    { name: options.name ?? 'mcp-kit', version: options.version ?? '0.1.0' },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { listChanged: true },
        prompts: { listChanged: true },
        logging: {},
      },
      instructions: options.instructions,
    },
  )
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...registry.tools.values()].map(
      ({ name, title, description, inputSchema, outputSchema, annotations }) => ({
        name,
        title,
        description,
        inputSchema: (inputSchema ?? { type: 'object' }) as { type: 'object' },
        outputSchema: outputSchema as { type: 'object' } | undefined,
        annotations,
      }),
    ),
  }))
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = registry.tools.get(request.params.name)
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Tool ${request.params.name} not found`)
    try {
      return toCallToolResult(await tool.handler(request.params.arguments ?? {}, contextFrom(server, extra)))
    } catch (error) {
      return {
        isError: true,
        content: [{ type: 'text', text: error instanceof Error ? error.message : String(error) }],
      }
    }
  })
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: [...registry.resources.values()].map(({ uri, name, title, description, mimeType }) => ({
      uri,
      name,
      title,
      description,
      mimeType,
    })),
  }))
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [] }))
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const resource = registry.resources.get(request.params.uri)
    if (!resource) throw new McpError(-32002, `Resource ${request.params.uri} not found`)
    return toReadResourceResult(
      await resource.read(request.params.uri, contextFrom(server, extra)),
      resource.uri,
      resource.mimeType,
    )
  })
  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: [...registry.prompts.values()].map(({ name, title, description, arguments: args }) => ({
      name,
      title,
      description,
      arguments: args,
    })),
  }))
  server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
    const prompt = registry.prompts.get(request.params.name)
    if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Prompt ${request.params.name} not found`)
    return toGetPromptResult(await prompt.get(request.params.arguments ?? {}, contextFrom(server, extra)))
  })
  return server
}
