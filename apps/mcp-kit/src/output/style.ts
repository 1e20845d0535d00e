// Bold, dim and accent for text meant for people: ANSI sequences only when colour is on
// (see useColor: a TTY, NO_COLOR unset), plain text otherwise.

export interface Style {
  bold(text: string): string
  dim(text: string): string
  accent(text: string): string
}

export function createStyle(color: boolean): Style {
  const wrap = (open: number, close: number) => (text: string) =>
    color ? `\u001b[${open}m${text}\u001b[${close}m` : text
  return { bold: wrap(1, 22), dim: wrap(2, 22), accent: wrap(36, 39) }
}
