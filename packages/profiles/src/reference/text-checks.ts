// Checks every part of a reference gets before it reaches a launch: a length limit, no control
// characters, and no leading '-' where a launcher would read an option.

import { ProfileError } from '../errors.js'

export const maxReferenceLength = 64 * 1024

const controlCharacterPattern = /[\u0000-\u001f\u007f]/

function describeCharacter(character: string): string {
  const names: Record<string, string> = { '\0': 'NUL', '\n': 'newline', '\r': 'carriage return', '\t': 'tab' }
  const code = `U+${character.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`
  return names[character] ? `${names[character]} (${code})` : code
}

export function refuseControlCharacters(text: string, where: string): void {
  const match = controlCharacterPattern.exec(text)
  if (match) {
    throw new ProfileError(
      'invalid_reference',
      `${where} contains a control character (${describeCharacter(match[0])}) at position ${match.index}`,
      { details: { position: match.index } },
    )
  }
}

export function refuseLeadingDash(text: string, where: string): void {
  // A leading '-' would be read as an option by node, python3, npx or uv (think `-e code`).
  if (text.startsWith('-')) {
    throw new ProfileError(
      'invalid_reference',
      `${where} ${JSON.stringify(text)} starts with '-', which the launcher would read as an option`,
    )
  }
}
