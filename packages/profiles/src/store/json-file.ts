// Reads JSON profile files, reporting syntax errors with the file, line and column. V8 reports a
// position for some syntax errors only, so the position is found by a small scan of our own.

import { ProfileError } from '../errors.js'

function lineAndColumn(text: string, position: number): { line: number; column: number } {
  const before = text.slice(0, position)
  const line = before.split('\n').length
  const column = position - before.lastIndexOf('\n')
  return { line, column }
}

/** Index of the first character where `text` stops being valid JSON (text.length if it ends early). */
export function findJsonErrorPosition(text: string): number {
  let index = 0
  const fail = (): never => {
    throw index
  }
  const skipSpace = () => {
    while (index < text.length && ' \t\n\r'.includes(text[index] as string)) index++
  }
  const expectText = (word: string) => {
    for (const character of word) {
      if (text[index] !== character) fail()
      index++
    }
  }
  const string = () => {
    index++ // opening quote
    while (index < text.length) {
      const character = text[index] as string
      if (character === '"') {
        index++
        return
      }
      if (character < ' ') fail()
      if (character === '\\') {
        index++
        const escaped = text[index]
        if (escaped === 'u') {
          for (let digit = 1; digit <= 4; digit++) if (!/[0-9a-fA-F]/.test(text[index + digit] ?? '')) fail()
          index += 4
        } else if (escaped === undefined || !'"\\/bfnrt'.includes(escaped)) fail()
      }
      index++
    }
    fail()
  }
  const number = () => {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(index))
    if (!match || match[0] === '' || match[0] === '-') fail()
    index += (match as RegExpExecArray)[0].length
  }
  const value = (): void => {
    skipSpace()
    const character = text[index]
    if (character === '{') {
      index++
      skipSpace()
      if (text[index] === '}') {
        index++
        return
      }
      for (;;) {
        skipSpace()
        if (text[index] !== '"') fail()
        string()
        skipSpace()
        expectText(':')
        value()
        skipSpace()
        if (text[index] === ',') index++
        else if (text[index] === '}') {
          index++
          return
        } else fail()
      }
    }
    if (character === '[') {
      index++
      skipSpace()
      if (text[index] === ']') {
        index++
        return
      }
      for (;;) {
        value()
        skipSpace()
        if (text[index] === ',') index++
        else if (text[index] === ']') {
          index++
          return
        } else fail()
      }
    }
    if (character === '"') string()
    else if (character === 't') expectText('true')
    else if (character === 'f') expectText('false')
    else if (character === 'n') expectText('null')
    else number()
  }
  try {
    value()
    skipSpace()
    if (index < text.length) fail()
  } catch (position) {
    if (typeof position === 'number') return position
    throw position
  }
  return text.length
}

/** Parses `text` read from `file`; a syntax error becomes `profile_invalid` naming file, line and column. */
export function parseJsonFile(text: string, file: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    const position = findJsonErrorPosition(text)
    const { line, column } = lineAndColumn(text, position)
    const found =
      position >= text.length ? 'unexpected end of input' : `unexpected ${JSON.stringify(text[position])}`
    throw new ProfileError('profile_invalid', `invalid JSON in ${file}:${line}:${column}: ${found}`, {
      details: { file, line, column },
      cause: error,
    })
  }
}
