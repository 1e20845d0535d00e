// The report for a person: a line per step as it ends (✓, ✗, skipped, could not run), the
// failures under a failed step, and a summary line. Everything a server or a file said passes
// the sanitizer: the lines go to a terminal.

import type { CollectionResult, StepResult } from '@mcp-kit/collections'
import { sanitizeLine } from '../../output/sanitize.js'
import type { Style } from '../../output/style.js'
import type { CollectionInfo, Reporter } from './reporter-types.js'

function duration(milliseconds: number): string {
  return milliseconds < 1000 ? `${Math.round(milliseconds)} ms` : `${(milliseconds / 1000).toFixed(1)} s`
}

const maximumFailuresShown = 10

export function prettyReporter(style: Style, verbose: boolean): Reporter {
  const mark = {
    passed: style.accent('✓'),
    failed: style.bold('✗'),
    error: style.bold('!'),
    skipped: style.dim('-'),
  }
  return {
    collection: (collection: CollectionInfo) =>
      `${style.bold(sanitizeLine(collection.name))}${collection.file ? style.dim(`  ${sanitizeLine(collection.file)}`) : ''}\n`,
    step(result: StepResult) {
      const name = sanitizeLine(result.name)
      const where = style.dim(result.line > 0 ? `  line ${result.line}` : '')
      if (result.status === 'skipped')
        return `  ${mark.skipped} ${style.dim(`${name} (skipped: ${sanitizeLine(result.skipped ?? '')})`)}\n`
      const lines = [
        `  ${mark[result.status]} ${name}  ${style.dim(duration(result.durationMs))}${result.status === 'passed' ? '' : where}`,
      ]
      const shown = verbose ? result.failures : result.failures.slice(0, maximumFailuresShown)
      for (const failure of shown) lines.push(`      ${failure.assertion}: ${sanitizeLine(failure.message)}`)
      if (shown.length < result.failures.length)
        lines.push(
          style.dim(`      and ${result.failures.length - shown.length} more (--verbose shows them)`),
        )
      return `${lines.join('\n')}\n`
    },
    end(results: readonly CollectionResult[], durationMs: number, updated: number) {
      const steps = results.flatMap((result) => result.steps)
      const count = (status: StepResult['status']) => steps.filter((step) => step.status === status).length
      const parts = [`${count('passed')} passed`]
      if (count('failed') > 0) parts.push(`${count('failed')} failed`)
      if (count('error') > 0) parts.push(`${count('error')} could not run`)
      if (count('skipped') > 0) parts.push(`${count('skipped')} skipped`)
      if (updated > 0) parts.push(`${updated} updated`)
      const unreachable = results.flatMap((result) =>
        result.unreachable.map(
          (server) =>
            `  ${mark.error} server '${sanitizeLine(server.server)}' of ${sanitizeLine(result.name)}: ${sanitizeLine(server.message)}\n`,
        ),
      )
      return `${unreachable.join('')}${parts.join(', ')} ${style.dim(`(${duration(durationMs)})`)}\n`
    },
  }
}
