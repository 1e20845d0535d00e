// Names in a generated module: a tool or prompt name as a camelCase method (`get-sum` → `getSum`),
// made unique and kept clear of reserved words and of the client's own members the same way
// every time, so regenerating never renames a method that did not change.

/** Words that are keywords, or would break the client object (a `then` makes it a thenable). */
const reserved = new Set(
  (
    'await break case catch class const continue debugger default delete do else enum export ' +
    'extends false finally for function if implements import in instanceof interface let new ' +
    'null package private protected public return static super switch this throw true try ' +
    'typeof var void while with yield then constructor prototype toString valueOf'
  ).split(' '),
)

function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '')
}

/** A word in capitals (`READ`, `URL`) counts as a word, not an acronym to keep. */
function plain(word: string): string {
  return word === word.toUpperCase() ? word.toLowerCase() : word
}

/**
 * `get-sum` → `getSum`, `read_text_file` → `readTextFile`, `READ_FILE` → `readFile`,
 * `getHTTPStatus` → `getHttpStatus`, `3d` → `tool3d`, `---` → `tool`.
 */
export function camelCase(name: string): string {
  const [first = 'tool', ...rest] = words(name).map(plain)
  const head = /^[0-9]/.test(first) ? `tool${first}` : first.charAt(0).toLowerCase() + first.slice(1)
  return head + rest.map(pascalCase).join('')
}

export function pascalCase(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1)
}

/**
 * The type name for a method's arguments or result: PascalCase, with a letter after a digit in
 * capitals (`tool3d` → `Tool3D`), as json-schema-to-typescript writes every name it is given.
 */
export function typeName(method: string): string {
  return pascalCase(method).replace(
    /([0-9])([a-z])/g,
    (_pair, digit: string, letter: string) => digit + letter.toUpperCase(),
  )
}

/**
 * One method name per raw name, in code-point order of the raw names: a reserved word or a taken
 * member gets `Tool` appended (`delete` → `deleteTool`), then a repeat gets 2, 3, …
 */
export function memberNames(rawNames: readonly string[], taken: readonly string[]): Map<string, string> {
  const members = new Set(taken)
  const used = new Set(taken)
  const names = new Map<string, string>()
  for (const raw of [...new Set(rawNames)].sort((left, right) =>
    left < right ? -1 : left > right ? 1 : 0,
  )) {
    let base = camelCase(raw)
    if (reserved.has(base) || members.has(base)) base = `${base}Tool`
    let name = base
    for (let count = 2; used.has(name); count++) name = `${base}${count}`
    used.add(name)
    names.set(raw, name)
  }
  return names
}
