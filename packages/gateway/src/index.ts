// @mcp-kit/gateway — public API: many MCP servers behind one endpoint.

export type { AuditLogOptions, AuditRecord } from './audit/audit-log.js'
export { CollisionError } from './catalog/catalog.js'
export type { ConfigResult } from './config/config.js'
export { ConfigError, readControlsFile, readGatewayConfig } from './config/config.js'
export type { ConfigApi } from './config/config-apis.js'
export type { ConfigReference } from './config/config-references.js'
export { rateLimitedCode } from './controls/call-controls.js'
export type { ControlsSpec, NamedToken } from './controls/controls-types.js'
export { tokenVerifier } from './controls/gateway-controls.js'
export type { Gateway, GatewayStatus, UpstreamHealth } from './gateway.js'
export { createGateway } from './gateway.js'
export type { ConcurrencySpec, LimitKey, LimitSpec, RateLimitSpec } from './limits/limits-types.js'
export { compileFilter, defaultPrefix, maximumNameLength, namespacedName } from './naming.js'
export type { ArgumentCondition, ItemSpec, PolicyItem, PolicySpec, RuleSpec } from './policy/policy-types.js'
export type { PrincipalMatcher, PrincipalSpec } from './policy/principal.js'
export { compilePrincipal } from './policy/principal.js'
export type { CallFigures } from './telemetry/call-figures.js'
export type { TracingOptions } from './telemetry/tracing.js'
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
export { defaultDiscoveryCacheDir, fileDiscoveryCache } from './upstream/discovery-cache.js'
export type { UpstreamChanges } from './upstream/upstream-changes.js'
