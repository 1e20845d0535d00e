// The one sanitizer for text the CLI writes for people. A server controls many strings we print
// (its name, instructions, tool descriptions, error messages, stderr, progress messages); written
// as they are, their control characters would drive the terminal: clear the screen, retitle the
// window, fake output with a carriage return, or set the clipboard (OSC 52). Others would hide or
// reorder what a person reads ("Trojan Source"), though a model reads them all. Here every such
// character becomes visible text (`\x1b`, `\u009b`, `\u{e0041}`) that a terminal prints instead
// of obeying or hiding.
//
// Escaped (the classes of unsafe-characters.ts): C0 controls (tab and newline only where the
// layout keeps them), DEL, C1 controls (U+0080–U+009F: U+009B is a one-character CSI on some
// terminals), bidi controls (embeddings, overrides, isolates, the directional marks), invisible
// format characters (zero-width space and joiners, word joiner, soft hyphen, byte order mark…),
// line and paragraph separators, tag characters (U+E0000–U+E007F) and lone surrogates.
// Backslashes stay as they are: a server spelling `\x1b` out itself fools no terminal, and Windows
// paths and regexes in descriptions keep reading normally.
//
// Machine output (NDJSON records, --format json, --raw) never goes through the text sanitizers:
// it stays byte-exact on pipes, and on a terminal `jsonForTerminal` only swaps the characters JSON
// leaves raw for JSON escapes, so the values read back unchanged.

import {
  bidiControls,
  controls,
  invisibleCharacters,
  layoutControls,
  lineSeparators,
  tagCodePoints,
  tagLeadSurrogate,
  tagPairs,
} from './unsafe-characters.js'

const hiding = `${bidiControls}${invisibleCharacters}${lineSeparators}`
// The fast path is two cheap scans (no `u` flag, and V8's native well-formedness check), so a
// string with nothing to escape costs little more than its length and comes back as it is.
// (A tag character's high surrogate is in the class: a false alarm only takes the slow path.)
const controlsInLine = new RegExp(`[${controls}${layoutControls}${hiding}${tagLeadSurrogate}]`)
const controlsInText = new RegExp(`[${controls}${hiding}${tagLeadSurrogate}]`)
// With the `u` flag a surrogate pair is one code point, so \p{Cs} matches lone surrogates only.
const unsafeInLine = new RegExp(`[${controls}${layoutControls}${hiding}${tagCodePoints}]|\\p{Cs}`, 'gu')
const unsafeInText = new RegExp(`[${controls}${hiding}${tagCodePoints}]|\\p{Cs}`, 'gu')

/** Node 20 has String.prototype.isWellFormed; the ES2023 typings do not know it yet. */
function wellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed()
}

const named: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' }

/** The visible form of one unsafe character: `\x1b` below U+0080, `\u009b` up to U+FFFF, `\u{e0041}` beyond. */
function escapeCharacter(character: string): string {
  const known = named[character]
  if (known !== undefined) return known
  const code = character.codePointAt(0) as number
  // C1 controls are shown as \u00XX: `\x9b` would read like a byte of some encoding.
  if (code < 0x80) return `\\x${code.toString(16).padStart(2, '0')}`
  return code <= 0xffff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\u{${code.toString(16)}}`
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

/**
 * Characters a JSON text may carry raw that a terminal could act on or a person would not see
 * (JSON.stringify escapes C0 and lone surrogates).
 */
const terminalUnsafeInJson = new RegExp(`[${controls}${hiding}${tagLeadSurrogate}]`)
const terminalUnsafeInJsonGlobal = new RegExp(`[${controls}${hiding}]|${tagPairs}`, 'g')

/**
 * JSON text (from JSON.stringify) for a terminal: the few characters JSON leaves raw that a
 * terminal could act on, or that hide text, become `\u…` escapes (a tag character as its two
 * UTF-16 halves). The value is unchanged (JSON.parse gives back the same strings); only what the
 * terminal sees differs. Pipes and files get the bytes unchanged.
 */
export function jsonForTerminal(json: string): string {
  if (!terminalUnsafeInJson.test(json)) return json
  return json.replace(terminalUnsafeInJsonGlobal, (found) => {
    let escaped = ''
    for (let index = 0; index < found.length; index++)
      escaped += `\\u${found.charCodeAt(index).toString(16).padStart(4, '0')}`
    return escaped
  })
}
