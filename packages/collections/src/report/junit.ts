// JUnit XML, as CI systems read it (Jenkins, GitLab, GitHub Actions reporters): one testsuite per
// collection, one testcase per step; an assertion that did not hold is a <failure>, a step that
// could not run (its server unreachable) an <error>, a skipped step <skipped>.

import type { CollectionResult, StepResult } from '../collection-types.js'
import { xmlAttribute, xmlText } from './xml-text.js'

function seconds(milliseconds: number): string {
  return (milliseconds / 1000).toFixed(3)
}

function counts(steps: readonly StepResult[]) {
  return {
    tests: steps.length,
    failures: steps.filter((step) => step.status === 'failed').length,
    errors: steps.filter((step) => step.status === 'error').length,
    skipped: steps.filter((step) => step.status === 'skipped').length,
  }
}

function testcase(step: StepResult, collection: CollectionResult): string {
  const attributes = [
    `name="${xmlAttribute(step.name)}"`,
    `classname="${xmlAttribute(collection.name)}"`,
    ...(collection.file ? [`file="${xmlAttribute(collection.file)}"`] : []),
    ...(step.line > 0 ? [`line="${step.line}"`] : []),
    `time="${seconds(step.durationMs)}"`,
  ].join(' ')
  if (step.status === 'passed') return `    <testcase ${attributes}/>`
  if (step.status === 'skipped')
    return `    <testcase ${attributes}>\n      <skipped message="${xmlAttribute(step.skipped ?? '')}"/>\n    </testcase>`
  const element = step.status === 'error' ? 'error' : 'failure'
  const first = step.failures[0]
  const body = step.failures.map((failure) => `${failure.assertion}: ${failure.message}`).join('\n')
  return [
    `    <testcase ${attributes}>`,
    `      <${element} message="${xmlAttribute(first?.message ?? step.status)}" type="${xmlAttribute(first?.assertion ?? step.status)}">${xmlText(body)}</${element}>`,
    `      <system-out>${xmlText(`server: ${step.server}`)}</system-out>`,
    '    </testcase>',
  ].join('\n')
}

/** The whole report for these collections' results. */
export function junitReport(
  results: readonly CollectionResult[],
  options: { name?: string; durationMs?: number } = {},
): string {
  const all = results.flatMap((result) => result.steps)
  const total = counts(all)
  const duration = options.durationMs ?? results.reduce((sum, result) => sum + result.durationMs, 0)
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlAttribute(options.name ?? 'mcp-kit test')}" tests="${total.tests}" failures="${total.failures}" errors="${total.errors}" skipped="${total.skipped}" time="${seconds(duration)}">`,
  ]
  for (const result of results) {
    const suite = counts(result.steps)
    lines.push(
      `  <testsuite name="${xmlAttribute(result.name)}" tests="${suite.tests}" failures="${suite.failures}" errors="${suite.errors}" skipped="${suite.skipped}" time="${seconds(result.durationMs)}"${result.file ? ` file="${xmlAttribute(result.file)}"` : ''}>`,
    )
    for (const step of result.steps) lines.push(testcase(step, result))
    lines.push('  </testsuite>')
  }
  lines.push('</testsuites>')
  return `${lines.join('\n')}\n`
}
