// What a generated module does about the ways its server's tools changed, by its schema policy,
// and the message that names each change with its class (@mcp-kit/schema's: breaking,
// non-breaking, behavioural). `mcp-kit profile validate FILE.ts` decides the same way.

import type { SchemaDrift } from './schema-drift.js'

/**
 * What a change to a module's tools does: `error` refuses any, `breaking` refuses breaking ones
 * and warns of the rest, `warn` warns of any, `ignore` does not look.
 */
export type SchemaPolicy = 'error' | 'breaking' | 'warn' | 'ignore'

export const schemaPolicies: readonly SchemaPolicy[] = ['error', 'breaking', 'warn', 'ignore']

/** What the policy makes of a drift: refused or not, and the message ('' when nothing changed). */
export interface DriftVerdict {
  refused: boolean
  message: string
}

interface DriftSource {
  source: string
  regenerate: string
}

/** A server's text on one line, its control characters (and U+2028/U+2029) escaped. */
function printable(text: string): string {
  return text.replace(
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}

/** Each change as `class: message`, breaking ones first. */
function listChanges(drift: SchemaDrift): string {
  const order = ['breaking', 'non-breaking', 'behavioural']
  return [...drift.changes]
    .sort((left, right) => order.indexOf(left.class) - order.indexOf(right.class))
    .map((change) => `${change.class}: ${printable(change.message)}`)
    .join('; ')
}

/** The message naming what changed and how to regenerate. */
export function describeDrift(generated: DriftSource, drift: SchemaDrift): string {
  const breaking = drift.changes.some((change) => change.class === 'breaking')
  const how = breaking ? '' : ', breaking none of its calls'
  return `the tools of ${printable(generated.source)} changed since this module was generated${how}: ${listChanges(drift)}; regenerate it with: ${printable(generated.regenerate)}`
}

export function driftVerdict(generated: DriftSource, drift: SchemaDrift, policy: SchemaPolicy): DriftVerdict {
  if (policy === 'ignore' || drift.changes.length === 0) return { refused: false, message: '' }
  const breaking = drift.changes.some((change) => change.class === 'breaking')
  const refused = policy === 'error' || (policy === 'breaking' && breaking)
  return { refused, message: describeDrift(generated, drift) }
}
