// The 2026-07-28 envelope: what every request of a modern session carries in `_meta` (protocol
// version, client capabilities, client info, log level) instead of an `initialize` handshake.

/** The per-request `_meta` of 2026-07-28. */
export interface Envelope {
  protocolVersion: string
  capabilities: Record<string, unknown>
  clientInfo: { name: string; version: string }
  logLevel?: string
}

/** The envelope as `_meta` entries. */
export function envelopeMeta(envelope: Envelope): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    'io.modelcontextprotocol/protocolVersion': envelope.protocolVersion,
    'io.modelcontextprotocol/clientCapabilities': envelope.capabilities,
    'io.modelcontextprotocol/clientInfo': envelope.clientInfo,
  }
  if (envelope.logLevel !== undefined) meta['io.modelcontextprotocol/logLevel'] = envelope.logLevel
  return meta
}
