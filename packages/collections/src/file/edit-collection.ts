// Changing a collection and writing it: every edit (a server or step added, a step replaced or
// removed, expectations rewritten) is made on the file's YAML document, so comments and layout
// outside the edit stay, and gives a new Collection checked as a file read from disk would be.

import { randomBytes } from 'node:crypto'
import { rename, rm, writeFile } from 'node:fs/promises'
import { basename, resolve } from 'node:path'
import { Document, isMap, isScalar, isSeq } from 'yaml'
import type {
  Collection,
  CollectionDocument,
  Expectations,
  ServerEntry,
  StepEntry,
} from '../collection-types.js'
import { CollectionError } from '../errors.js'
import { documents, parseCollection } from './load-collection.js'
import { documentOptions } from './parse-document.js'

/** Where editors find the schema of a collection written by this package. */
export const collectionSchemaUrl = 'https://unpkg.com/@mcp-kit/collections/collection.schema.json'

const nodeOptions = { aliasDuplicateObjects: false } as const
const textOptions = { lineWidth: 0, indentSeq: true } as const

function documentOf(collection: Collection): Document {
  const known = documents.get(collection)
  if (known !== undefined) return known.clone()
  return new Document(collection.document, { ...documentOptions, ...nodeOptions })
}

/** The collection's text as it would be written (YAML, or JSON for a `.json` file). */
export function collectionText(collection: Collection): string {
  if (collection.format === 'json') return `${JSON.stringify(collection.document, null, 2)}\n`
  return documentOf(collection).toString(textOptions)
}

function reparse(collection: Collection, text: string): Collection {
  return parseCollection(text, {
    file: collection.file || undefined,
    format: collection.format,
    directory: collection.directory,
  })
}

/** Runs `change` on a copy of the collection's document and checks the result. */
function edit(collection: Collection, change: (document: Document) => void): Collection {
  const document = documentOf(collection)
  change(document)
  const text =
    collection.format === 'json'
      ? `${JSON.stringify(document.toJS(), null, 2)}\n`
      : document.toString(textOptions)
  return reparse(collection, text)
}

/**
 * A new collection of these servers and steps (checked as a file would be); `file` names it in
 * messages and decides its format (`.json`: JSON).
 */
export function createCollection(
  value: Omit<CollectionDocument, '$schema'> & { $schema?: string },
  options: { file?: string; directory?: string } = {},
): Collection {
  const document = { $schema: collectionSchemaUrl, ...value }
  const json = options.file?.toLowerCase().endsWith('.json') === true
  const text = json
    ? `${JSON.stringify(document, null, 2)}\n`
    : new Document(document, { ...documentOptions, ...nodeOptions }).toString(textOptions)
  return parseCollection(text, {
    file: options.file,
    format: json ? 'json' : 'yaml',
    directory: options.directory,
  })
}

/** Sets (a value) or removes (undefined) a field of the collection itself (`name`, `masks`, `variables`, …). */
export function setField<Key extends Exclude<keyof CollectionDocument, 'servers' | 'steps'>>(
  collection: Collection,
  key: Key,
  value: CollectionDocument[Key] | undefined,
): Collection {
  return edit(collection, (document) => {
    if (value === undefined) document.delete(key)
    else if (document.has(key) || !isMap(document.contents))
      document.set(key, document.createNode(value, nodeOptions))
    else {
      // A new field goes before the servers, where a person would write it.
      const items = document.contents.items
      const at = items.findIndex((pair) => isScalar(pair.key) && pair.key.value === 'servers')
      items.splice(at === -1 ? items.length : at, 0, document.createPair(key, value, nodeOptions))
    }
  })
}

/**
 * Adds (or replaces) a server. A collection of one server gaining a second one names the first
 * in its steps that named none, so that they run where they ran.
 */
export function setServer(collection: Collection, name: string, entry: ServerEntry): Collection {
  const existing = Object.keys(collection.document.servers)
  const only = existing.length === 1 && existing[0] !== name ? existing[0] : undefined
  return edit(collection, (document) => {
    document.setIn(['servers', name], document.createNode(entry, nodeOptions))
    if (only === undefined) return
    for (const step of collection.steps)
      if (step.entry.server === undefined) {
        const node = document.getIn(['steps', step.index], true)
        if (isMap(node)) node.items.unshift(document.createPair('server', only))
      }
  })
}

/** Adds a step at the end, or before the step at `index`. */
export function addStep(collection: Collection, entry: StepEntry, index?: number): Collection {
  return edit(collection, (document) => {
    const steps = document.get('steps', true)
    const node = document.createNode(entry, nodeOptions)
    if (isSeq(steps)) steps.items.splice(index ?? steps.items.length, 0, node)
    else document.set('steps', document.createNode([entry], nodeOptions))
  })
}

function stepNode(document: Document, index: number) {
  const steps = document.get('steps', true)
  if (!isSeq(steps) || index < 0 || index >= steps.items.length)
    throw new CollectionError('invalid_options', `the collection has no step ${index + 1}`)
  return steps
}

/** Replaces the step at `index`. */
export function replaceStep(collection: Collection, index: number, entry: StepEntry): Collection {
  return edit(collection, (document) => {
    stepNode(document, index).items[index] = document.createNode(entry, nodeOptions)
  })
}

/** Removes the step at `index`. */
export function removeStep(collection: Collection, index: number): Collection {
  return edit(collection, (document) => {
    stepNode(document, index).items.splice(index, 1)
  })
}

/** Sets (a value) or removes (undefined) expectations of the step at `index`, keeping the others. */
export function setExpectations(
  collection: Collection,
  index: number,
  changes: { [Key in keyof Expectations]?: Expectations[Key] | undefined },
): Collection {
  return edit(collection, (document) => {
    stepNode(document, index)
    const path = ['steps', index, 'expect']
    for (const [key, item] of Object.entries(changes)) {
      if (item === undefined) {
        if (isMap(document.getIn(path, true))) document.deleteIn([...path, key])
      } else document.setIn([...path, key], document.createNode(item, nodeOptions))
    }
    const expect = document.getIn(path, true)
    if (isMap(expect) && expect.items.length === 0) document.deleteIn(path)
  })
}

/** Writes the collection to `path` (default: its own file), all at once: a reader never sees half of it. */
export async function saveCollection(
  collection: Collection,
  path = collection.file === '' ? '' : resolve(collection.directory, basename(collection.file)),
): Promise<void> {
  if (path === '')
    throw new CollectionError('invalid_options', 'say where to save a collection built in memory')
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`
  try {
    await writeFile(temporary, collectionText(collection))
    await rename(temporary, path)
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => {})
    throw new CollectionError('collection_io', `cannot write ${path}: ${(error as Error).message}`, {
      details: { file: path },
      cause: error,
    })
  }
}
