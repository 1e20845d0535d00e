// Keeping secrets out of profiles. Profiles get shared (a project's `.mcp-kit/` is committed with
// its code), so a secret value never goes into one: it goes to the user's secret store, and the
// profile says `${secret:<key>}`, filled in when the profile is used. What counts as a secret:
// environment variables, headers, flags and query parameters with secret-sounding names
// (TOKEN, API_KEY, PASSWORD, Authorization, …), URLs with a password in them, values shaped like
// well-known tokens, and whatever the caller knows to be secret (a VS Code password input).
// Keys are `<profile>/<where>/<name>`: `github/env/GITHUB_TOKEN`, `notes/header/Authorization`.

import type { ProfileMeta } from '../profile-types.js'

const secretWords =
  /token|secret|passw(?:or)?d|passphrase|api[-_]?key|access[-_]?key|private[-_]?key|credential|auth(?!or)|cookie|session|(?:^|[-_])(?:key|pat|pwd|pin)(?:$|[-_])/i
// Names that say what a value is about, not that it is the secret: AUTH_URL, TOKEN_FILE, KEY_ID.
const notSecretSuffix =
  /[-_](?:path|file|dir|directory|url|uri|endpoint|host|port|id|name|type|mode|region|user|username|version|header|scheme|method)$/i
const secretHeaders = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-api-key', 'api-key'])
const tokenShapes = [
  /^gh[pousr]_[A-Za-z0-9]{20,}$/,
  /^github_pat_[A-Za-z0-9_]{20,}$/,
  /^glpat-[A-Za-z0-9_-]{16,}$/,
  /^sk-[A-Za-z0-9_-]{16,}$/,
  /^xox[abpr]-[A-Za-z0-9-]{10,}$/,
  /^AKIA[0-9A-Z]{16}$/,
]
// scheme://user:password@host
const passwordInUrl = /^[a-z][a-z0-9+.-]*:\/\/[^/\s@:]*:[^/\s@]+@/i

/** An environment variable, flag or query parameter whose name says it holds a secret. */
export function isSecretName(name: string): boolean {
  return secretWords.test(name) && !notSecretSuffix.test(name)
}

/** A header that carries credentials. */
export function isSecretHeader(name: string): boolean {
  return secretHeaders.has(name.toLowerCase()) || isSecretName(name)
}

/** A value that is a secret whatever its name: a well-known token shape, a URL with a password. */
export function looksLikeSecret(value: string): boolean {
  return passwordInUrl.test(value) || tokenShapes.some((shape) => shape.test(value))
}

/** Text with no `${…}` reference in it (a `$${` escape is text). */
function isLiteral(value: string): boolean {
  return !value.replace(/\$\$\{/g, '').includes('${')
}

/** The value a literal stands for (`$${` is how a profile writes `${`). */
function literalValue(value: string): string {
  return value.replace(/\$\$\{/g, '${')
}

export interface SeparateOptions {
  /**
   * Fields that are secret whatever their name or value: `env.NAME`, `headers.Name`,
   * `args[2]`, `url`, `command`.
   */
  force?: ReadonlySet<string>
}

export interface SeparatedSecrets {
  /** The launch settings, each secret replaced by its `${secret:KEY}`. */
  meta: ProfileMeta
  /** KEY → value, for the secret store. */
  secrets: Record<string, string>
}

/**
 * Takes the secrets out of a profile's launch settings. Values that are references already
 * (`${GITHUB_TOKEN}`, `Bearer ${TOKEN}`) stay: they hold no secret.
 */
export function separateSecrets(
  profile: string,
  meta: ProfileMeta,
  options: SeparateOptions = {},
): SeparatedSecrets {
  const force = options.force ?? new Set<string>()
  const secrets: Record<string, string> = {}
  const result: ProfileMeta = { ...meta }
  const keep = (where: string, name: string, value: string): string => {
    const base = `${profile}/${where}/${name.replace(/[^A-Za-z0-9._-]/g, '_')}`
    let key = base
    for (let count = 2; Object.hasOwn(secrets, key) && secrets[key] !== literalValue(value); count++)
      key = `${base}-${count}`
    secrets[key] = literalValue(value)
    return `\${secret:${key}}`
  }
  const secretValue = (field: string, byName: boolean, value: string) =>
    isLiteral(value) && value !== '' && (force.has(field) || byName || looksLikeSecret(value))

  if (meta.env) {
    result.env = {}
    for (const [name, value] of Object.entries(meta.env)) {
      result.env[name] = secretValue(`env.${name}`, isSecretName(name), value)
        ? keep('env', name, value)
        : value
    }
  }
  if (meta.headers) {
    result.headers = {}
    for (const [name, value] of Object.entries(meta.headers)) {
      result.headers[name] = secretValue(`headers.${name}`, isSecretHeader(name), value)
        ? keep('header', name, value)
        : value
    }
  }
  if (Array.isArray(meta.args)) {
    const original: unknown[] = meta.args
    const args = [...meta.args]
    for (const [index, value] of args.entries()) {
      const flag = /^(--?[A-Za-z][\w.-]*)=(.*)$/s.exec(value)
      const previous = index > 0 ? original[index - 1] : undefined
      if (flag && !force.has(`args[${index}]`)) {
        const [, name, flagValue] = flag as unknown as [string, string, string]
        if (secretValue(`args[${index}]`, isSecretName(name.replace(/^-+/, '')), flagValue))
          args[index] = `${name}=${keep('arg', name.replace(/^-+/, ''), flagValue)}`
      } else {
        // `--token abc`: the word after a secret flag (the original flag word, not a replaced one).
        const afterFlag =
          !value.startsWith('-') &&
          typeof previous === 'string' &&
          /^--?[A-Za-z][\w.-]*$/.test(previous) &&
          isSecretName(previous.replace(/^-+/, ''))
        if (secretValue(`args[${index}]`, afterFlag, value)) args[index] = keep('arg', String(index), value)
      }
    }
    result.args = args
  }
  if (typeof meta.url === 'string') {
    const url = meta.url
    if (secretValue('url', false, url) && (force.has('url') || passwordInUrl.test(url))) {
      result.url = keep('url', 'url', url)
    } else {
      // Query parameters: ?api_key=… (the text as written, so it goes back in unchanged).
      result.url = url.replace(
        /([?&])([^=&#]+)=([^&#]*)/g,
        (whole, separator: string, name: string, value: string) =>
          secretValue(`url`, isSecretName(decodeURIComponentSafe(name)), value) && value !== ''
            ? `${separator}${name}=${keep('query', decodeURIComponentSafe(name), value)}`
            : whole,
      )
    }
  }
  if (typeof meta.command === 'string' && force.has('command') && isLiteral(meta.command))
    result.command = keep('command', 'command', meta.command)
  return { meta: result, secrets }
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}
