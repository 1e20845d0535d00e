// Compiled resource templates and how a URI finds its template: the most specific one that
// matches wins (longest literal prefix, then most literal characters), not the first registered,
// so a broad template (`demo://{+any}`) added earlier never takes the reads of a narrower one.

import type { UriTemplate } from '@modelcontextprotocol/server'
import { serverSdk } from '../sdk.js'
import { refuse } from './checks.js'
import type { ResourceTemplateDefinition } from './types.js'

type Specificity = readonly [number, number]

export interface TemplateMatch {
  definition: ResourceTemplateDefinition
  variables: Record<string, string | string[]>
}

/** The compiled templates of one registry. */
export class TemplateMatchers {
  readonly #entries: Array<{
    template: UriTemplate
    definition: ResourceTemplateDefinition
    specificity: Specificity
  }> = []

  /** Compiles the definition's template; refuses an invalid one and completions of unknown variables. */
  add(definition: ResourceTemplateDefinition, owner: string): void {
    const { uriTemplate } = definition
    let template: UriTemplate
    try {
      template = new (serverSdk().UriTemplate)(uriTemplate)
    } catch (error) {
      refuse(`invalid URI template '${uriTemplate}': ${(error as Error).message}`, error)
    }
    for (const variable of Object.keys(definition.complete ?? {})) {
      if (!template.variableNames.includes(variable))
        refuse(`${owner}: completion for unknown variable '${variable}'`)
    }
    this.#entries.push({ template, definition, specificity: specificityOf(uriTemplate) })
  }

  remove(uriTemplate: string): void {
    const at = this.#entries.findIndex(({ definition }) => definition.uriTemplate === uriTemplate)
    if (at !== -1) this.#entries.splice(at, 1)
  }

  /** The most specific template matching `uri`, with its variables. */
  match(uri: string): TemplateMatch | undefined {
    let best: TemplateMatch | undefined
    let bestSpecificity: Specificity = [-1, -1]
    for (const { template, definition, specificity } of this.#entries) {
      if (!moreSpecific(specificity, bestSpecificity)) continue
      const variables = template.match(uri)
      if (variables === null) continue
      best = { definition, variables }
      bestSpecificity = specificity
    }
    return best
  }
}

/** How specific a URI template is: its literal prefix's length, then its literal characters. */
export function specificityOf(uriTemplate: string): Specificity {
  const brace = uriTemplate.indexOf('{')
  const prefix = brace === -1 ? uriTemplate.length : brace
  return [prefix, uriTemplate.replace(/\{[^}]*\}/g, '').length]
}

function moreSpecific(a: Specificity, b: Specificity): boolean {
  return a[0] > b[0] || (a[0] === b[0] && a[1] > b[1])
}
