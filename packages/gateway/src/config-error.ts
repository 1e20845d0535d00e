// The error of a gateway config file (or controls file) that cannot be used.

/** A gateway config file that cannot be used; its message names the file (and line, where known). */
export class ConfigError extends Error {
  override readonly name = 'ConfigError'
}
