// @mcp-kit/openapi — public API: any REST API with an OpenAPI 3 document as MCP tools. Any new
// export added here becomes public API; the sorted export list is pinned in test/exports.test.ts.

// Reading a document

export type { LoadOptions, OpenApiDocument } from './document/load.js'
export { loadOpenApi } from './document/load.js'

// Its operations as tools

export type { OpenApiRegistryOptions, OpenApiTool, OpenApiToolOptions } from './registry.js'
export { createOpenApiRegistry, openApiTools } from './registry.js'
export type { OutputSchemaMode } from './tools/output-schema.js'

// Credentials for the API

export type { ClientCredentials } from './auth/client-credentials.js'
export type { OpenApiCredential } from './auth/credentials.js'
export { credentialsFromEnvironment, environmentVariable } from './auth/credentials.js'

// Errors

export type { OpenApiErrorCode, OpenApiErrorOptions } from './errors.js'
export { OpenApiError } from './errors.js'
