// A drift baseline named by file: a JSON or YAML list of tools, or `{tools: […]}`, from the
// collection's directory.

import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { BaselineTool, Collection } from '../collection-types.js'
import { CollectionError } from '../errors.js'

export async function loadBaseline(collection: Collection, file: string): Promise<BaselineTool[]> {
  const path = resolve(collection.directory, file)
  let value: unknown
  try {
    const { parse } = await import('yaml')
    value = parse(await readFile(path, 'utf8'))
  } catch (error) {
    throw new CollectionError(
      'collection_io',
      `cannot read the drift baseline ${file}: ${(error as Error).message}`,
    )
  }
  const tools = Array.isArray(value) ? value : (value as { tools?: unknown } | null)?.tools
  if (!Array.isArray(tools) || !tools.every((tool) => typeof tool?.name === 'string'))
    throw new CollectionError(
      'invalid_collection',
      `the drift baseline ${file} is not a list of tools (or {tools: […]})`,
    )
  return tools as BaselineTool[]
}
