// What a document or an API says reaches clients, models and terminals without what could steer
// a terminal or hide text: escape sequences whole (CSI, OSC such as hyperlinks and window titles,
// DCS and the rest), C0 and C1 control characters, bidirectional overrides and isolates
// (U+202A–U+202E, U+2066–U+2069), invisible format characters (U+200B–U+200F, U+FEFF) and the
// Unicode line and paragraph separators (U+2028, U+2029). Line breaks and tabs stay.

const escapes = /\u001b(?:\[[0-?]*[ -/]*[@-~]|[\]PX^_][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[ -/]*[0-~])/g
const controls =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g

// Any of them (ESC is a C0 control): most text has none, and is then returned as it is.
const anyUnsafe =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/

export function cleanText(text: string): string {
  if (!anyUnsafe.test(text)) return text
  return text.replace(escapes, '').replace(controls, '')
}
