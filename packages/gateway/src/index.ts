// @mcp-kit/gateway — public API: many MCP servers behind one endpoint.

export { CollisionError } from './catalog.js'
export type { ConfigResult } from './config.js'
export { ConfigError, readGatewayConfig } from './config.js'
export type { ConfigApi } from './config-apis.js'
export type { ConfigReference } from './config-references.js'
export { defaultDiscoveryCacheDir, fileDiscoveryCache } from './discovery-cache.js'
export type { Gateway, UpstreamHealth } from './gateway.js'
export { createGateway } from './gateway.js'
export { compileFilter, defaultPrefix, maximumNameLength, namespacedName } from './naming.js'
export type {
  Discovery,
  DiscoveryCache,
  GatewayEvent,
  GatewayOptions,
  NameFilter,
  UpstreamOAuth,
  UpstreamOptions,
  UpstreamState,
} from './types.js'
