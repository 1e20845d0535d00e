// CLI exit codes (docs/architecture.md "Errors") and the error → exit code mapping shared by all commands.

export const exitCodes = {
  ok: 0,
  failed: 1,
  usage: 2,
  connect: 3,
  timeout: 4,
  schemaChanged: 5,
  /** The server needed an answer (elicitation) that neither a terminal nor the flags could give. */
  inputRequired: 6,
  /** The server needs a login that could not happen here (no terminal): run `mcp-kit auth login`. */
  authRequired: 7,
  interrupted: 130,
} as const

const byErrorCode: Record<string, number> = {
  invalid_reference: exitCodes.usage,
  profile_not_found: exitCodes.usage,
  profile_invalid: exitCodes.usage,
  missing_env: exitCodes.usage,
  missing_secret: exitCodes.usage,
  missing_input: exitCodes.usage,
  invalid_input: exitCodes.usage,
  server_not_found: exitCodes.usage,
  invalid_arguments: exitCodes.usage,
  tool_not_found: exitCodes.usage,
  resource_not_found: exitCodes.usage,
  usage: exitCodes.usage,
  invalid_collection: exitCodes.usage,
  collection_io: exitCodes.usage,
  launch_failed: exitCodes.connect,
  connect_failed: exitCodes.connect,
  server_exited: exitCodes.connect,
  http_error: exitCodes.connect,
  registry_unreachable: exitCodes.connect,
  registry_invalid: exitCodes.connect,
  timeout: exitCodes.timeout,
  schema_changed: exitCodes.schemaChanged,
  input_required: exitCodes.inputRequired,
  auth_required: exitCodes.authRequired,
  cancelled: exitCodes.interrupted,
}

/** Exit code for an mcp-kit error code; anything else (tool_error, server_error, protocol_error, internal) is 1. */
export function exitCodeFor(code: string): number {
  return byErrorCode[code] ?? exitCodes.failed
}
