// Splitting a line of `mcp-kit shell` into words the way a POSIX shell would, minus everything
// that is not quoting: blanks separate words, '…' keeps everything, "…" keeps everything but
// \" and \\, and a backslash outside quotes takes the next character as it is. So arguments read
// the same as on the command line: message="hello world", query='a "quoted" word'.

import { CliError } from './errors.js'

export function splitWords(line: string): string[] {
  const words: string[] = []
  let word = ''
  let inWord = false
  let quote: "'" | '"' | undefined
  for (let index = 0; index < line.length; index++) {
    const character = line[index] as string
    if (quote === "'") {
      if (character === "'") quote = undefined
      else word += character
    } else if (quote === '"') {
      if (character === '"') quote = undefined
      else if (character === '\\' && (line[index + 1] === '"' || line[index + 1] === '\\'))
        word += line[++index]
      else word += character
    } else if (character === "'" || character === '"') {
      quote = character
      inWord = true
    } else if (character === '\\' && index + 1 < line.length) {
      word += line[++index]
      inWord = true
    } else if (/\s/.test(character)) {
      if (inWord) words.push(word)
      word = ''
      inWord = false
    } else {
      word += character
      inWord = true
    }
  }
  if (quote !== undefined)
    throw new CliError('usage', `unclosed ${quote === "'" ? 'single' : 'double'} quote`)
  if (inWord) words.push(word)
  return words
}
