// The environment a stdio server starts with: a minimal inherited set (as the MCP SDK and sudo do) plus
// what the server spec and the options add, so the parent's secrets reach servers only through `passEnv`.

const posixNames = [
  'HOME',
  'LOGNAME',
  'PATH',
  'SHELL',
  'TERM',
  'USER',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TMPDIR',
  'TZ',
  'XDG_CONFIG_HOME',
  'XDG_CACHE_HOME',
  'XDG_DATA_HOME',
  'XDG_RUNTIME_DIR',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
]
const windowsNames = [
  'APPDATA',
  'HOMEDRIVE',
  'HOMEPATH',
  'LOCALAPPDATA',
  'PATH',
  'PATHEXT',
  'PROCESSOR_ARCHITECTURE',
  'SYSTEMDRIVE',
  'SYSTEMROOT',
  'TEMP',
  'TMP',
  'USERNAME',
  'USERPROFILE',
  'PROGRAMFILES',
  'COMSPEC',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
]

/** Names inherited by every stdio server on this platform. */
export function inheritedEnvironmentNames(platform: NodeJS.Platform = process.platform): readonly string[] {
  return platform === 'win32' ? windowsNames : posixNames
}

export interface EnvironmentOptions {
  /** The parent environment (default process.env). */
  parent?: Readonly<Record<string, string | undefined>> | undefined
  /** Names or `*` globs of parent variables to pass through as well. */
  passEnv?: readonly string[] | undefined
  /** Variables set explicitly (the spec's `env`, then the `env` option); they win over the parent's. */
  set?: Readonly<Record<string, string>> | undefined
  platform?: NodeJS.Platform | undefined
}

function globToPattern(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')
  return new RegExp(`^${escaped}$`)
}

/** Builds a server's environment and says where each variable came from (for diagnostics). */
export function buildEnvironment(options: EnvironmentOptions = {}): {
  env: Record<string, string>
  inherited: string[]
  passed: string[]
  set: string[]
} {
  const parent = options.parent ?? process.env
  const env: Record<string, string> = {}
  const inherited: string[] = []
  const passed: string[] = []
  for (const name of inheritedEnvironmentNames(options.platform)) {
    const value = parent[name]
    // Values starting with "()" are exported shell functions, which a server has no use for.
    if (value === undefined || value.startsWith('()')) continue
    env[name] = value
    inherited.push(name)
  }
  const patterns = (options.passEnv ?? []).map(globToPattern)
  if (patterns.length > 0) {
    for (const [name, value] of Object.entries(parent)) {
      if (value === undefined || !patterns.some((pattern) => pattern.test(name))) continue
      env[name] = value
      passed.push(name)
    }
  }
  const set = Object.keys(options.set ?? {})
  Object.assign(env, options.set)
  return { env, inherited, passed, set }
}
