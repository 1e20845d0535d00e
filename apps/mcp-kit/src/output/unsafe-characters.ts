// Characters a server's text must not carry to a person or a model unseen, as regular-expression
// character classes: controls a terminal obeys, and bidi and invisible format characters, which
// reorder or hide text from people but not from the models that read it. This file is the same in
// every package that uses it (@mcp-kit/gateway, the mcp-kit CLI; a test keeps them equal), so it
// can move to a shared home as it is. It imports nothing.

/** C0 controls except tab (U+0009) and line feed (U+000A), DEL, and C1 controls (U+0080–U+009F). */
export const controls = '\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f'

/** Tab and line feed: layout in text, controls on one line. */
export const layoutControls = '\\t\\n'

/**
 * Bidi controls: the Arabic letter mark (U+061C), the left-to-right and right-to-left marks
 * (U+200E, U+200F), embeddings and overrides (U+202A–U+202E) and isolates (U+2066–U+2069).
 */
export const bidiControls = '\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069'

/**
 * Invisible format characters: the soft hyphen (U+00AD), the Mongolian vowel separator (U+180E),
 * zero-width space, non-joiner and joiner (U+200B–U+200D), the word joiner and invisible
 * operators (U+2060–U+2064), the deprecated format characters (U+206A–U+206F), the zero-width
 * no-break space or byte order mark (U+FEFF) and the interlinear annotation characters
 * (U+FFF9–U+FFFB).
 */
export const invisibleCharacters =
  '\\u00ad\\u180e\\u200b-\\u200d\\u2060-\\u2064\\u206a-\\u206f\\ufeff\\ufff9-\\ufffb'

/** The line and paragraph separators (U+2028, U+2029): line breaks to some readers, not to others. */
export const lineSeparators = '\\u2028\\u2029'

/**
 * The tag characters (U+E0000–U+E007F), invisible copies of ASCII, as UTF-16 pairs: for patterns
 * without the `u` flag.
 */
export const tagPairs = '\\udb40[\\udc00-\\udc7f]'

/**
 * The high surrogate every tag character starts with: a quick scan can put it in one class with
 * the others (a single class is the cheapest test) and leave the exact match to the slow path.
 */
export const tagLeadSurrogate = '\\udb40'

/** The tag characters as a class range of code points: for patterns with the `u` flag. */
export const tagCodePoints = '\\u{e0000}-\\u{e007f}'

/**
 * Halves of UTF-16 surrogate pairs standing alone, as a pattern without the `u` flag: no
 * character at all, and two of them on either side of a removed character would join into one.
 */
export const loneSurrogates = '[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]'
