// What the workspace API sends, as the page reads it.

export interface Failure {
  step: string
  code: string
  message: string
  fix: string
  stderr: string[]
  httpStatus?: number
  exitCode?: number | null
}

export interface ServerView {
  id: string
  name: string
  reference: string
  spec?: Record<string, unknown>
  profile?: string
  profileHash?: string
  state: 'connecting' | 'connected' | 'failed' | 'closed'
  era?: 'legacy' | 'modern'
  protocolVersion?: string
  transport?: string
  serverInfo?: { name: string; version: string; title?: string }
  capabilities?: Record<string, unknown>
  instructions?: string
  cacheHints: Record<string, { ttlMs: number; scope: string }>
  schemaHash?: string
  counts: { tools: number; resources: number; templates: number; prompts: number }
  listErrors: Record<string, string>
  failure?: Failure
  diagnostics: string[]
  stderr: string[]
}

export type Schema = Record<string, unknown>

export interface Tool {
  name: string
  title?: string
  description?: string
  inputSchema?: Schema
  outputSchema?: Schema
  annotations?: Record<string, unknown>
  _meta?: Record<string, unknown>
}

export interface Resource {
  uri: string
  name?: string
  title?: string
  description?: string
  mimeType?: string
}

export interface ResourceTemplate {
  uriTemplate: string
  name?: string
  title?: string
  description?: string
}

export interface Prompt {
  name: string
  title?: string
  description?: string
  arguments?: Array<{ name: string; description?: string; required?: boolean }>
}

export interface Lists {
  tools: Tool[]
  resources: Resource[]
  templates: ResourceTemplate[]
  prompts: Prompt[]
  errors: Record<string, string>
  /** Optional lists still being asked for: the tools came first. */
  pending?: string[]
}

export interface Question {
  id: string
  serverId: string
  kind: 'elicit' | 'sample'
  during?: string
  params: Record<string, unknown>
  askedAt: number
}

export interface MessageRow {
  seq: number
  serverId: string
  server: string
  ts: number
  direction: 'sent' | 'received'
  message: Record<string, unknown>
  /** `app`: between the page and an MCP App view (`sent`: to the view). */
  channel?: 'app'
}

export interface CallRow {
  seq: number
  serverId: string
  server: string
  ts: number
  call: Record<string, unknown>
}

export type TimelineRow = MessageRow | CallRow

export interface ApiErrorView {
  code: string
  message: string
  details?: Record<string, unknown>
}
