// A launch setting of a generated module as text and variables: what @mcp-kit/profiles keeps out
// of a profile as `${secret:KEY}` (a secret by its name or its shape) is a variable here, read
// from the environment when the module connects. One value renders three ways: in the module's
// `server` (`$${` for a literal `${`), in the `source` it names, and in the regenerate command.

/** A value as text, with variables where its secrets were. */
export type Parts = Array<string | { variable: string }>

const secretReference = /\$\{secret:([A-Za-z0-9._/-]+)\}/g

/** Where a secret was, by its store key `<profile>/<where>/<name>`: the variable that stands for it. */
export function variableFor(key: string): string {
  const [, where = '', ...rest] = key.split('/')
  const name = rest.join('/')
  if (where === 'env' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return name
  const word = name
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
  if (where === 'arg' && /^[0-9]+$/.test(word)) return `SECRET_ARG_${word}`
  if (where === 'url') return 'SERVER_URL'
  return /^[A-Z_]/.test(word) ? word : `SECRET_${word}`
}

/** A value as separateSecrets left it: its `${secret:KEY}`s as variables, the rest as text. */
export function partsOf(separated: string, secrets: Readonly<Record<string, string>>): Parts {
  const parts: Parts = []
  let last = 0
  for (const match of separated.matchAll(secretReference)) {
    const key = match[1] as string
    if (!Object.hasOwn(secrets, key)) continue
    parts.push(separated.slice(last, match.index), { variable: variableFor(key) })
    last = match.index + match[0].length
  }
  parts.push(separated.slice(last))
  return parts.filter((part) => part !== '')
}

export function variablesOf(parts: Parts): string[] {
  return parts.flatMap((part) => (typeof part === 'string' ? [] : [part.variable]))
}

/** As launch settings write it: `$${` for a literal `${`, `${NAME}` for a variable. */
export function asTemplate(parts: Parts): string {
  return (
    parts
      // A function, not the string '$${': in a replacement string `$$` is one `$`.
      .map((part) => (typeof part === 'string' ? part.replaceAll('${', () => '$${') : `\${${part.variable}}`))
      .join('')
  )
}

/** As a person reads it: the text, and `${NAME}` where a secret was. */
export function asText(parts: Parts): string {
  return parts.map((part) => (typeof part === 'string' ? part : `\${${part.variable}}`)).join('')
}

/** A word as a POSIX shell reads it back; a variable as the shell expands it. */
export function asShellWord(parts: Parts): string {
  if (variablesOf(parts).length === 0) {
    const word = asText(parts)
    return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
  }
  const inside = parts
    .map((part) => (typeof part === 'string' ? part.replace(/[\\"`$]/g, '\\$&') : `\${${part.variable}}`))
    .join('')
  return `"${inside}"`
}
