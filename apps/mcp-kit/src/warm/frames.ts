// The warm-session wire between a CLI process and the daemon: frames of one type byte, a 32-bit
// length and a payload. The CLI sends its command (`H`, JSON), its stdin when the command reads it
// (`i` chunks, `I` at the end), its signals (`s`) and the answers typed on its terminal (`a`,
// JSON); the daemon sends stdout and stderr (`o`, `e`), asks for stdin (`r`), asks a question on
// the CLI's terminal (`q`, JSON) and says when the questions are over (`c`), and ends with the
// exit code (`x`), or a JSON answer (`j`) to a control request, or `v` when it belongs to another
// mcp-kit build (the CLI starts its own), or `n` when a command it was offered tentatively (a
// profile's keepAlive?) is not a warm one.

export const frameTypes = {
  hello: 'H',
  stdin: 'i',
  stdinEnd: 'I',
  signal: 's',
  typed: 'a',
  stdout: 'o',
  stderr: 'e',
  readStdin: 'r',
  question: 'q',
  questionsOver: 'c',
  exit: 'x',
  answer: 'j',
  otherBuild: 'v',
  notWarm: 'n',
} as const

/** Largest frame either side accepts: stdout chunks are small; a hello carries the environment. */
export const maxFrameBytes = 64 * 1024 * 1024

/** One frame. */
export function encodeFrame(type: string, payload: Buffer | string = ''): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload
  const frame = Buffer.allocUnsafe(5 + body.length)
  frame.write(type, 0, 1, 'latin1')
  frame.writeUInt32BE(body.length, 1)
  body.copy(frame, 5)
  return frame
}

/** Turns a byte stream back into frames; throws on a frame larger than `maxFrameBytes`. */
export function createFrameReader(onFrame: (type: string, payload: Buffer) => void): (chunk: Buffer) => void {
  let buffered: Buffer = Buffer.alloc(0)
  return (chunk) => {
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk])
    while (buffered.length >= 5) {
      const length = buffered.readUInt32BE(1)
      if (length > maxFrameBytes) throw new Error(`a frame of ${length} bytes is larger than allowed`)
      if (buffered.length < 5 + length) return
      const type = String.fromCharCode(buffered[0] as number)
      const payload = buffered.subarray(5, 5 + length)
      buffered = buffered.subarray(5 + length)
      onFrame(type, payload)
    }
  }
}
