// File arguments of uploads (multipart file parts, raw byte bodies): the bytes in base64, or
// `@name` for a file in the one directory the server was given for them (`filesDirectory`,
// `--openapi-files DIR`). Without one, no file on the machine can be sent: a model's argument must
// not be able to read the server's keys or the user's documents. The name is resolved inside the
// directory, links followed and checked again, and the file must be a regular one of at most
// 32 MiB.

import { open, realpath } from 'node:fs/promises'
import { basename, isAbsolute, resolve, sep } from 'node:path'
import { RequestRefused } from './path.js'

/** Where uploads may be read from: a real path (links resolved). */
export interface FileAccess {
  directory: string
}

export const maximumUploadBytes = 32 * 1024 * 1024

const base64 = /^[A-Za-z0-9+/_-]*={0,2}$/

/** The directory for `filesDirectory`, checked at load. */
export async function fileAccessOf(directory: string): Promise<FileAccess> {
  return { directory: await realpath(directory) }
}

async function readInside(argument: string, name: string, files: FileAccess): Promise<Uint8Array> {
  const wanted = resolve(files.directory, name)
  const inside = files.directory.endsWith(sep) ? files.directory : `${files.directory}${sep}`
  let real: string
  try {
    real = await realpath(wanted)
  } catch {
    throw new RequestRefused(`parameter '${argument}': there is no file ${JSON.stringify(name)} to send`)
  }
  if (isAbsolute(name) || !real.startsWith(inside)) {
    throw new RequestRefused(
      `parameter '${argument}': ${JSON.stringify(name)} is not in the directory files are sent from; nothing was sent`,
    )
  }
  const handle = await open(real, 'r')
  try {
    const stat = await handle.stat()
    if (!stat.isFile())
      throw new RequestRefused(`parameter '${argument}': ${JSON.stringify(name)} is not a file`)
    if (stat.size > maximumUploadBytes) {
      throw new RequestRefused(
        `parameter '${argument}': ${JSON.stringify(name)} is larger than ${maximumUploadBytes} bytes`,
      )
    }
    return new Uint8Array(await handle.readFile())
  } finally {
    await handle.close()
  }
}

/** A file argument's bytes and file name. */
export async function fileArgument(
  argument: string,
  value: unknown,
  files: FileAccess | undefined,
): Promise<{ bytes: Uint8Array; name: string }> {
  if (typeof value !== 'string') {
    throw new RequestRefused(`parameter '${argument}': a file is given as base64 text or @name`)
  }
  if (value.startsWith('@')) {
    if (files === undefined) {
      throw new RequestRefused(
        `parameter '${argument}': no file is read from the server's disk unless it was given a directory for them (filesDirectory, --openapi-files DIR); give the file's bytes in base64`,
      )
    }
    const name = value.slice(1)
    return { bytes: await readInside(argument, name, files), name: basename(name) }
  }
  const compact = value.replace(/\s+/g, '')
  if (!base64.test(compact) || compact.replace(/=+$/, '').length % 4 === 1) {
    throw new RequestRefused(`parameter '${argument}': neither base64 nor @name of a file`)
  }
  return {
    bytes: new Uint8Array(Buffer.from(compact, /[-_]/.test(compact) ? 'base64url' : 'base64')),
    name: argument,
  }
}
