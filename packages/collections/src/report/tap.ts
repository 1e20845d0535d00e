// TAP version 13: a line per step as it ends (`ok`, `not ok`, `# SKIP`), the failures as a YAML
// block under a failed one, and the plan at the end.

import { stringify } from 'yaml'
import type { StepResult } from '../collection-types.js'

const controlCharacters = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g

/** A description on one line: no line breaks, `#` escaped (it starts a directive), no control characters. */
function description(text: string): string {
  return text
    .replace(/[\r\n]+/g, ' ')
    .replace(controlCharacters, '?')
    .replace(/\\/g, '\\\\')
    .replace(/#/g, '\\#')
}

export function tapHeader(): string {
  return 'TAP version 13\n'
}

/** The lines of the `number`th step. */
export function tapStep(
  step: StepResult,
  number: number,
  collection: { name: string; file: string },
): string {
  const name = description(`${collection.name} › ${step.name}`)
  if (step.status === 'passed') return `ok ${number} - ${name}\n`
  if (step.status === 'skipped') return `ok ${number} - ${name} # SKIP ${description(step.skipped ?? '')}\n`
  const details = stringify(
    {
      ...(collection.file ? { file: collection.file } : {}),
      ...(step.line > 0 ? { line: step.line } : {}),
      server: step.server,
      severity: step.status === 'error' ? 'error' : 'fail',
      failures: step.failures.map((failure) => `${failure.assertion}: ${failure.message}`),
    },
    { lineWidth: 0 },
  )
  const block = details
    .trimEnd()
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n')
  return `not ok ${number} - ${name}\n  ---\n${block}\n  ...\n`
}

export function tapPlan(count: number): string {
  return `1..${count}\n`
}
