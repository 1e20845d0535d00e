// Which files and URLs a document's `$ref`s may make us read, as resolvers for the dereferencer
// (@readme/openapi-parser). A document's own folder is its world: a file refers to files in its
// folder or below (symbolic links followed, then checked), a document from a URL to documents
// under its URL's folder on its origin. A `file:` URL, an absolute path or `../` out of the
// folder is refused: whatever is read ends up in `tools/list`. Documents elsewhere on the web are
// read only when remote references are allowed (the document then chooses what this machine
// fetches: for documents one trusts). Every read goes through read.ts, within the load's budget.

import { realpath } from 'node:fs/promises'
import { dirname, sep } from 'node:path'
import { fetchText, parseText, type ReadBudget, ReadRefused, readFileText } from './read.js'

/** Where the document came from: what its references are relative to. */
export type DocumentRoot =
  | { kind: 'file'; path: string; folder: string }
  | { kind: 'url'; url: URL }
  | { kind: 'object' }

interface ParserFile {
  url: string
}

/** The words the app replaces with its own flag (as "give the base URL of the API"). */
export const remoteHint = 'allow remote references to read it'

function fileSystemPath(url: string): string {
  return decodeURI(url.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'))
}

/** The resolvers for one load, and the document's root (read through them too). */
export function referenceResolvers(root: DocumentRoot, budget: ReadBudget, allowRemote: boolean) {
  const rootFolder =
    root.kind === 'url' ? new URL('.', root.url).pathname : root.kind === 'file' ? root.folder : ''

  // The document itself, read once: first by loadOpenApi, then handed to the bundler as it asks.
  let rootValue: Promise<unknown> | undefined
  const rootUrl = root.kind === 'url' ? root.url.href : root.kind === 'file' ? root.path : undefined

  async function readFile(file: ParserFile): Promise<unknown> {
    if (root.kind === 'file' && fileSystemPath(file.url) === root.path && rootValue !== undefined)
      return rootValue
    if (/^[a-z][a-z0-9+.-]*:/i.test(file.url)) {
      const scheme = file.url.slice(0, file.url.indexOf(':') + 1).toLowerCase()
      throw new ReadRefused(
        scheme === 'file:'
          ? `a $ref to ${file.url}: file: references are not read (refer to files beside the document by a relative path)`
          : `a $ref to ${file.url}: only relative file paths and http(s) URLs are read`,
      )
    }
    const path = fileSystemPath(file.url)
    if (root.kind !== 'file') {
      throw new ReadRefused(
        `a $ref to the file ${path}: a document ${root.kind === 'url' ? 'read from a URL' : 'given as an object'} may not refer to local files`,
      )
    }
    let real: string
    try {
      real = await realpath(path)
    } catch {
      throw new ReadRefused(`a $ref to ${path}: no such file`)
    }
    const inside = root.folder.endsWith(sep) ? root.folder : `${root.folder}${sep}`
    if (real !== root.path && !real.startsWith(inside)) {
      throw new ReadRefused(
        `a $ref to ${path}: it is outside the document's folder ${root.folder}, and files outside it are not read`,
      )
    }
    return await parseText(await readFileText(real, budget), path)
  }

  async function readUrl(file: ParserFile): Promise<unknown> {
    const url = new URL(file.url)
    url.hash = ''
    if (url.href === rootUrl && rootValue !== undefined) return rootValue
    const isRoot = root.kind === 'url' && url.href === root.url.href
    const beside =
      root.kind === 'url' && url.origin === root.url.origin && url.pathname.startsWith(rootFolder)
    if (!isRoot && !beside && !allowRemote) {
      throw new ReadRefused(
        `a $ref to ${url.origin}${url.pathname}: documents elsewhere than beside this one are not read (${remoteHint})`,
      )
    }
    return await parseText(await fetchText(url.href, budget, isRoot), `${url.origin}${url.pathname}`)
  }

  // The dereferencer rewraps what a resolver throws and loses its message: keep the first here.
  let refusal: unknown
  const kept =
    (read: (file: ParserFile) => Promise<unknown>) =>
    async (file: ParserFile): Promise<unknown> => {
      try {
        return await read(file)
      } catch (error) {
        const refused =
          error instanceof ReadRefused || budget.signal?.aborted
            ? error
            : new ReadRefused(`cannot read ${file.url}: ${(error as Error)?.message ?? String(error)}`)
        refusal ??= refused
        throw refused
      }
    }
  return {
    file: { order: 1, canRead: (file: ParserFile) => !/^https?:/i.test(file.url), read: kept(readFile) },
    http: { order: 2, canRead: (file: ParserFile) => /^https?:/i.test(file.url), read: kept(readUrl) },
    /** The document itself, read and parsed (once). */
    root(): Promise<unknown> {
      if (rootValue === undefined) {
        const read =
          root.kind === 'file'
            ? async () => parseText(await readFileText(root.path, budget), root.path)
            : readUrl
        rootValue = kept(read)({ url: rootUrl ?? '' })
      }
      return rootValue
    },
    /** The first error a read threw, if any: the reason the dereferencer failed. */
    refusal: (): unknown => refusal,
  }
}

/** The root of a file document: its real path and folder (links followed). */
export async function fileRoot(path: string): Promise<DocumentRoot & { kind: 'file' }> {
  const real = await realpath(path)
  return { kind: 'file', path: real, folder: dirname(real) }
}
