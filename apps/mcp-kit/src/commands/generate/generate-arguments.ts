// The arguments of `mcp-kit generate`, shared by the command, the run and the module server.

import type { SchemaPolicy } from '@mcp-kit/client'
import type { ConnectionArguments } from '../../session/connection-flags.js'

export interface GenerateArguments extends ConnectionArguments {
  reference?: string
  serverCommand?: string[]
  out: string
  /** The module's schema policy (its connect() default); absent: `error`. */
  policy?: SchemaPolicy
}
