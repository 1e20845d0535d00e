// What an upstream says about its tools, prompts, resources and templates, made safe to pass on:
// descriptions and titles (also of schema properties and prompt arguments) and resource display
// names lose their control characters (escape sequences, BEL, NUL, DEL, C1 controls, carriage
// returns), which a client printing them would obey, and their bidi and invisible format
// characters, which hide or reorder text for the people who read it but not for the model
// (unsafe-characters.ts). Line and paragraph separators become spaces; line feeds and tabs stay.
// Names the clients call are made safe by naming.ts; URIs are kept exact.

import type { Discovery } from '../types.js'
import {
  bidiControls,
  controls,
  invisibleCharacters,
  lineSeparators,
  loneSurrogates,
  tagPairs,
} from './unsafe-characters.js'

// A quick scan (one class) finds most text clean; only the rest is rewritten. Every surrogate
// (a tag character starts with one) sends text to the slow path, where lone halves are found too.
const unsafe = new RegExp(
  `[${controls}${bidiControls}${invisibleCharacters}${lineSeparators}\\ud800-\\udfff]`,
)
const removed = new RegExp(
  `[${controls}${bidiControls}${invisibleCharacters}]|${tagPairs}|${loneSurrogates}`,
  'g',
)
const separators = new RegExp(`[${lineSeparators}]`, 'g')

/** `text` without the characters a person reading it would not see, or a terminal would obey. */
export function cleanText(text: string): string {
  if (!unsafe.test(text)) return text
  return text.replace(removed, '').replace(separators, ' ')
}

type Described = Record<string, unknown>

/** A copy of `item` with its own text fields (`keys`) cleaned. */
function cleaned<T>(item: T, keys: readonly string[]): T {
  const copy = { ...(item as Described) }
  for (const key of keys) {
    const value = copy[key]
    if (typeof value === 'string') copy[key] = cleanText(value)
  }
  return copy as T
}

/** Schema keywords whose values are data, not schemas: left as they are. */
const dataKeywords = new Set(['const', 'default', 'enum', 'examples'])

/** A JSON Schema with every `description` and `title` cleaned, at any depth. */
export function cleanSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(cleanSchema)
  if (typeof schema !== 'object' || schema === null) return schema
  const copy: Described = {}
  for (const [key, value] of Object.entries(schema)) {
    if ((key === 'description' || key === 'title') && typeof value === 'string') copy[key] = cleanText(value)
    else copy[key] = dataKeywords.has(key) ? value : cleanSchema(value)
  }
  return copy
}

/** An upstream's lists with their descriptive text cleaned. */
export function cleanDiscovery(discovery: Discovery): Discovery {
  const text = ['title', 'description']
  return {
    ...discovery,
    tools: discovery.tools.map((tool) => {
      const copy = cleaned(tool, text)
      copy.inputSchema = cleanSchema(tool.inputSchema) as typeof tool.inputSchema
      if (tool.outputSchema !== undefined)
        copy.outputSchema = cleanSchema(tool.outputSchema) as typeof tool.outputSchema
      if (tool.annotations !== undefined) copy.annotations = cleaned(tool.annotations, ['title'])
      return copy
    }),
    prompts: discovery.prompts.map((prompt) => {
      const copy = cleaned(prompt, text)
      if (Array.isArray(prompt.arguments))
        copy.arguments = prompt.arguments.map((argument: unknown) => cleaned(argument, text))
      return copy
    }),
    // A display name of nothing but control characters becomes the URI (a name is required).
    resources: discovery.resources.map((resource) => {
      const copy = cleaned(resource, ['name', ...text])
      return { ...copy, name: copy.name || resource.uri }
    }),
    resourceTemplates: discovery.resourceTemplates.map((template) => {
      const copy = cleaned(template, ['name', ...text])
      return { ...copy, name: copy.name || template.uriTemplate }
    }),
  }
}
