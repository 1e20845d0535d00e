// Where `mcp-kit test` reports go: `--reporter NAME[=FILE]`, each to stdout or to a file, and the
// default — a line per step for a person at a terminal, NDJSON records for a program.

import { writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { CollectionResult, StepResult } from '@mcp-kit/collections'
import { CliError } from '../../base/errors.js'
import { type Io, useColor, write } from '../../base/io.js'
import { createStyle } from '../../output/style.js'
import { jsonForStdout } from '../../output/write-records.js'
import { prettyReporter } from './pretty.js'
import type { CollectionInfo, Reporter } from './reporter-types.js'

export type { CollectionInfo, Reporter }

const kinds = ['pretty', 'ndjson', 'junit', 'tap'] as const
type Kind = (typeof kinds)[number]

interface Target {
  kind: Kind
  /** undefined: stdout. */
  file?: string
}

export function parseReporterFlags(values: readonly string[] | undefined, io: Io): Target[] {
  if (values === undefined || values.length === 0) return [{ kind: io.stdoutIsTTY ? 'pretty' : 'ndjson' }]
  const targets = values.map((value): Target => {
    const equals = value.indexOf('=')
    const kind = (equals === -1 ? value : value.slice(0, equals)) as Kind
    if (!kinds.includes(kind))
      throw new CliError(
        'usage',
        `--reporter ${JSON.stringify(value)}: expected one of ${kinds.join(', ')}, optionally as NAME=FILE`,
      )
    const file = equals === -1 ? undefined : value.slice(equals + 1)
    if (file === '') throw new CliError('usage', `--reporter ${value}: give a file after =`)
    return file === undefined ? { kind } : { kind, file: resolve(io.cwd, file) }
  })
  if (targets.filter((target) => target.file === undefined).length > 1)
    throw new CliError(
      'usage',
      '--reporter: only one report can go to stdout; send the others to files (NAME=FILE)',
    )
  return targets
}

async function reporterOf(
  kind: Kind,
  color: boolean,
  forTerminal: boolean,
  verbose: boolean,
): Promise<Reporter> {
  const collections = await import('@mcp-kit/collections')
  switch (kind) {
    case 'pretty':
      return prettyReporter(createStyle(color), verbose)
    case 'ndjson': {
      const line = (value: unknown) =>
        `${forTerminal ? jsonForStdout({ stdoutIsTTY: true }, JSON.stringify(value)) : JSON.stringify(value)}\n`
      return {
        step: (result, collection) => line(collections.stepRecord(result, collection)),
        end: (results, durationMs, updated) =>
          line({ ...collections.summaryRecord(results, durationMs), ...(updated > 0 ? { updated } : {}) }),
      }
    }
    case 'junit':
      return {
        step: () => '',
        end: (results, durationMs) => collections.junitReport(results, { durationMs }),
      }
    case 'tap': {
      let started = false
      const header = () => {
        if (started) return ''
        started = true
        return collections.tapHeader()
      }
      return {
        step: (result, collection, number) => `${header()}${collections.tapStep(result, number, collection)}`,
        end: (results) =>
          `${header()}${collections.tapPlan(results.reduce((sum, result) => sum + result.steps.length, 0))}`,
      }
    }
  }
}

/** The reports of a run, fed as it goes; `finish` writes the file reports. */
export async function openReports(
  targets: readonly Target[],
  io: Io,
  options: { quiet?: boolean; verbose?: boolean },
) {
  const outputs: Array<{ reporter: Reporter; file?: string; text: string[] }> = []
  for (const target of targets) {
    const terminal = target.file === undefined && io.stdoutIsTTY
    const color = target.file === undefined && useColor(io, 'stdout')
    outputs.push({
      reporter: await reporterOf(target.kind, color, terminal, options.verbose === true),
      file: target.file,
      text: [],
    })
  }
  // A person at a terminal sees the steps go by even when stdout carries a report for a program.
  const prettyOnTerminal =
    io.stdoutIsTTY && targets.some((target) => target.file === undefined && target.kind === 'pretty')
  if (!options.quiet && io.stderrIsTTY && !prettyOnTerminal)
    outputs.push({
      reporter: prettyReporter(createStyle(useColor(io, 'stderr')), options.verbose === true),
      file: 'stderr',
      text: [],
    })
  const emit = async (produce: (reporter: Reporter) => string) => {
    for (const output of outputs) {
      const text = produce(output.reporter)
      if (text === '') continue
      if (output.file === undefined) await write(io.stdout, text)
      else if (output.file === 'stderr') await write(io.stderr, text)
      else output.text.push(text)
    }
  }
  return {
    collection: (collection: CollectionInfo) => emit((reporter) => reporter.collection?.(collection) ?? ''),
    step: (result: StepResult, collection: CollectionInfo, number: number) =>
      emit((reporter) => reporter.step(result, collection, number)),
    async finish(results: readonly CollectionResult[], durationMs: number, updated: number) {
      await emit((reporter) => reporter.end(results, durationMs, updated))
      for (const output of outputs) {
        if (output.file === undefined || output.file === 'stderr') continue
        try {
          await writeFile(output.file, output.text.join(''))
        } catch (error) {
          throw new CliError('usage', `--reporter: cannot write ${output.file}: ${(error as Error).message}`)
        }
      }
    },
  }
}
