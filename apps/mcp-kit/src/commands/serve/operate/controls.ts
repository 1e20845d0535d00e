// The operator's controls of `serve` as a gateway: named tokens, policy, limits and who may read
// /admin/status, from `--policy FILE` or the `gateway` object of `--config`, checked at load
// (a mistake is exit 2, naming its line).

import type { ConfigResult, ControlsSpec, GatewayOptions } from '@mcp-kit/gateway'
import { CliError } from '../../../base/errors.js'
import type { Io } from '../../../base/io.js'
import type { ServeArguments } from '../serve-options.js'

/** The controls in force: `--policy`'s file wins over the config's `gateway` object. */
export async function readOperatorControls(
  args: ServeArguments,
  io: Io,
  config: ConfigResult | undefined,
): Promise<ControlsSpec | undefined> {
  if (args.policy === undefined) return config?.controls
  const { readControlsFile, ConfigError } = await import('@mcp-kit/gateway')
  try {
    return readControlsFile(args.policy, { cwd: io.cwd, env: io.env })
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError('usage', `--policy: ${error.message}`)
    throw error
  }
}

/** The gateway options the controls set (those a reload replaces). */
export function controlOptions(
  controls: ControlsSpec | undefined,
): Pick<GatewayOptions, 'policy' | 'limits'> {
  return { policy: controls?.policy, limits: controls?.limits }
}
