// The one sanitizer for text the CLI writes for people. A server controls many strings we print
// (its name, instructions, tool descriptions, error messages, stderr, progress messages); written
// as they are, their control characters would drive the terminal: clear the screen, retitle the
// window, fake output with a carriage return, or set the clipboard (OSC 52). Here every such
// character becomes visible text (`\x1b`, `\u009b`) that a terminal prints instead of obeying.
//
// Escaped: C0 controls (tab and newline only where the layout keeps them), DEL, C1 controls
// (U+0080–U+009F: U+009B is a one-character CSI on some terminals), lone surrogates, and the bidi
// embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) that reorder what is shown
// ("Trojan Source"). Backslashes stay as they are: a server spelling `\x1b` out itself fools no
// terminal, and Windows paths and regexes in descriptions keep reading normally.
//
// Machine output (NDJSON records, --format json, --raw) never goes through the text sanitizers:
// it stays byte-exact on pipes, and on a terminal `jsonForTerminal` only swaps the characters JSON
// leaves raw for JSON escapes, so the values read back unchanged.

// The fast path is two cheap scans (no `u` flag, and V8's native well-formedness check), so a
// string with nothing to escape costs little more than its length and comes back as it is.
const controlsInLine = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/
const controlsInText = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/
// With the `u` flag a surrogate pair is one code point, so \p{Cs} matches lone surrogates only.
const unsafeInLine = new RegExp(`${controlsInLine.source}|\\p{Cs}`, 'gu')
const unsafeInText = new RegExp(`${controlsInText.source}|\\p{Cs}`, 'gu')

/** Node 20 has String.prototype.isWellFormed; the ES2023 typings do not know it yet. */
function wellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed()
}

const named: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' }

/** The visible form of one unsafe character: `\x1b` below U+0080, `\u009b` and up otherwise. */
function escapeCharacter(character: string): string {
  const known = named[character]
  if (known !== undefined) return known
  const code = character.charCodeAt(0)
  // C1 controls are shown as \u00XX: `\x9b` would read like a byte of some encoding.
  return code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
}

/** `text` safe for a terminal, keeping newlines and tabs (messages, server stderr lines). */
export function sanitizeText(text: string): string {
  if (!controlsInText.test(text) && wellFormed(text)) return text
  return text.replace(unsafeInText, escapeCharacter)
}

/** `text` safe for a terminal on one line: newlines and tabs are escaped too (names, table cells). */
export function sanitizeLine(text: string): string {
  if (!controlsInLine.test(text) && wellFormed(text)) return text
  return text.replace(unsafeInLine, escapeCharacter)
}

/**
 * One line of at most `limit` characters: whitespace runs become one space, unsafe characters
 * are escaped, and a cut (marked `…`) falls between characters, never inside an escape or a
 * surrogate pair.
 */
export function clip(text: string | undefined, limit: number): string {
  if (!text) return ''
  const flat = text.replace(/\s+/g, ' ').trim()
  const safe = sanitizeLine(flat)
  if (safe.length <= limit) return safe
  if (safe === flat) {
    // Nothing escaped: cut at the limit, one earlier if that would split a surrogate pair.
    const end = limit - 1
    const code = flat.charCodeAt(end - 1)
    return `${flat.slice(0, code >= 0xd800 && code <= 0xdbff ? end - 1 : end)}…`
  }
  let result = ''
  // for…of walks code points: a pair stays whole, a lone surrogate comes alone (and is escaped).
  for (const character of flat) {
    const shown = sanitizeLine(character)
    if (result.length + shown.length > limit - 1) break
    result += shown
  }
  return `${result}…`
}

/** The first line of a message, on one line and safe ("the tool reported an error: …"). */
export function firstLine(text: string): string {
  const newline = text.indexOf('\n')
  return sanitizeLine(newline === -1 ? text : text.slice(0, newline))
}

/** Characters a JSON text may carry raw that a terminal could act on (JSON.stringify escapes C0). */
const terminalUnsafeInJson = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/
const terminalUnsafeInJsonGlobal = new RegExp(terminalUnsafeInJson.source, 'g')

/**
 * JSON text (from JSON.stringify) for a terminal: the few characters JSON leaves raw that a
 * terminal could act on become `\u…` escapes. The value is unchanged (JSON.parse gives back the
 * same strings); only what the terminal sees differs. Pipes and files get the bytes unchanged.
 */
export function jsonForTerminal(json: string): string {
  if (!terminalUnsafeInJson.test(json)) return json
  return json.replace(
    terminalUnsafeInJsonGlobal,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}
