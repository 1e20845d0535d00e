// Text from servers inside XML: the five special characters escaped, and the characters XML 1.0
// cannot hold at all (most control characters, lone surrogates, U+FFFE/U+FFFF) written as
// `\uXXXX` text, so any string a server sends makes a well-formed report. No CDATA sections: a
// `]]>` in the text is just escaped text.

const notXml = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu

function visible(text: string): string {
  return text.replace(
    notXml,
    (character) => `\\u${(character.codePointAt(0) as number).toString(16).padStart(4, '0')}`,
  )
}

/** Character data: `&`, `<` and `>` escaped. */
export function xmlText(text: string): string {
  return visible(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/** An attribute value (in double quotes): quotes escaped, and line breaks and tabs kept as references. */
export function xmlAttribute(text: string): string {
  return xmlText(text)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;')
}
