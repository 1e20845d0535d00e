// A document file read and parsed here (JSON, else YAML), so that one whose `$ref`s are all its
// own is resolved without the parser (local-references.ts). Any problem leaves the file to the
// parser, whose messages say what is wrong with it.

import { readFile } from 'node:fs/promises'
import { noteLocalReferences } from './local-references.js'

/** The file's document, or undefined when it cannot be read or parsed as an object. */
export async function readDocumentFile(path: string): Promise<Record<string, unknown> | undefined> {
  try {
    const text = await readFile(path, 'utf8')
    const json = /^\s*[{[]/.test(text)
    // yaml loads only for YAML: it is a large module.
    const value: unknown = json ? JSON.parse(text) : (await import('yaml')).parse(text)
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
    if (json) noteLocalReferences(value, text)
    return value as Record<string, unknown>
  } catch {
    return undefined
  }
}
