// A stdio server's stderr, line by line: each line is handed on as it completes (`onStderr`), and
// the last lines are kept, each clipped, for the messages that report a crash.

const stderrTailLines = 20
const maxStderrLineLength = 1000

export class StderrTail {
  /** The last lines, oldest first. The same array throughout: an exit report holds on to it. */
  readonly lines: string[] = []
  readonly #options: { readonly onStderr?: (line: string) => void }
  #partial = ''

  /** `options.onStderr` gets every line (the transport's options, read as each line completes). */
  constructor(options: { readonly onStderr?: (line: string) => void }) {
    this.#options = options
  }

  /** Takes a chunk of stderr text. */
  push(text: string): void {
    const lines = (this.#partial + text).split('\n')
    this.#partial = lines.pop() ?? ''
    if (this.#partial.length > maxStderrLineLength * 4) {
      lines.push(this.#partial)
      this.#partial = ''
    }
    for (const line of lines) this.#record(line)
  }

  /** Takes the last line when the stream ended without a newline. */
  flush(): void {
    if (this.#partial !== '') this.#record(this.#partial)
    this.#partial = ''
  }

  #record(raw: string): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    this.#options.onStderr?.(line)
    this.lines.push(line.length > maxStderrLineLength ? `${line.slice(0, maxStderrLineLength)}…` : line)
    if (this.lines.length > stderrTailLines) this.lines.shift()
  }
}
