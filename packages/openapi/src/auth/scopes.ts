// The OAuth scopes a tool needs, for a server that checks its callers' tokens (`requireScopes`,
// `mcp-kit serve --auth-issuer`): those the operation's security names for its OAuth 2 and OpenID
// Connect schemes. A tool's scopes are all required, while OpenAPI's security alternatives are
// any-of: a tool asks for the scopes of every alternative, so a caller never gets more than the
// document allows (a DELETE that needs `pets:write` needs it here too).

import type { OpenApiDocument } from '../document/load.js'
import { OpenApiError } from '../errors.js'
import type { SecurityRequirements } from '../tools/operations.js'

// What an OAuth scope may be (RFC 6749 §3.3), as the server's registry checks it.
const scopePattern = /^[\x21\x23-\x5b\x5d-\x7e]+$/

/** The scopes a caller's token must carry to call an operation (empty: none). */
export function toolScopes(
  document: OpenApiDocument,
  security: SecurityRequirements,
  where: string,
): string[] {
  const components = document.spec.components as
    | { securitySchemes?: Record<string, { type?: unknown }> }
    | undefined
  const schemes = components?.securitySchemes ?? {}
  const scopes = new Set<string>()
  for (const requirement of security) {
    for (const [name, names] of Object.entries(requirement)) {
      const type = schemes[name]?.type
      if (type !== 'oauth2' && type !== 'openIdConnect') continue
      for (const scope of names) {
        if (!scopePattern.test(scope)) {
          throw new OpenApiError(
            'invalid_spec',
            `${where}: its security names the scope ${JSON.stringify(scope)}, which no token can carry`,
          )
        }
        scopes.add(scope)
      }
    }
  }
  return [...scopes].sort()
}
