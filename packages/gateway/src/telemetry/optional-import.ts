// The observability libraries are optional peer dependencies: loaded only when an operator turns
// metrics or tracing on, so a gateway without them installs and starts without them.

/** True for the error of importing a package (`name`, or a scope such as `@opentelemetry/`) that is not installed. */
export function missingModule(error: unknown, name: string): boolean {
  const code = (error as { code?: unknown })?.code
  return code === 'ERR_MODULE_NOT_FOUND' && String((error as Error).message).includes(name)
}

/** A package's module, or an error saying which package to install for which feature. */
export async function optionalImport<T>(name: string, feature: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load()
  } catch (error) {
    if (!missingModule(error, name)) throw error
    throw new Error(
      `${feature} needs the optional dependency ${name}: install it beside @mcp-kit/gateway (npm install ${name})`,
      {
        cause: error,
      },
    )
  }
}
