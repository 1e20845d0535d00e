// `mcp-kit test FILE…`: every file read and checked first (a bad one: each problem on a line of
// its own, exit 2, nothing runs), then the collections one after another, reported as they go;
// `--update` rewrites what no longer matches. Exit: 0 all passed, 1 a step failed, 2 a bad file
// or flag, 3 a server could not be launched or reached.

import type { Collection, CollectionProblem, CollectionResult, StepResult } from '@mcp-kit/collections'
import { CliError, isKitError, type KitError } from '../../base/errors.js'
import { exitCodes } from '../../base/exit-codes.js'
import type { Io } from '../../base/io.js'
import { writeDiagnostic } from '../../output/diagnostics.js'
import { createStatus } from '../../output/status.js'
import type { ConnectionArguments } from '../../session/connection-flags.js'
import { appVariables } from '../../session/reference.js'
import { cliConnect, cliInputFor, cliResolver } from '../shared/cli-hooks.js'
import { parseEnvFlags } from './env-flags.js'
import { openReports, parseReporterFlags } from './reporters.js'

export interface TestArguments extends ConnectionArguments {
  files: string[]
  reporter?: string[]
  bail?: boolean
  grep?: string
  env?: string[]
  parallel?: boolean
  update?: boolean
}

/** Each problem of a bad file on a line of its own. */
async function reportBadFile(error: KitError & { problems?: CollectionProblem[] }, io: Io): Promise<void> {
  const { formatProblem } = await import('@mcp-kit/collections')
  const problems = error.problems ?? []
  if (problems.length === 0) writeDiagnostic(io, error.message)
  for (const problem of problems) writeDiagnostic(io, formatProblem(problem))
}

/** Every file, read and checked; a bad one is reported and makes the run exit 2 before it starts. */
async function loadAll(files: readonly string[], io: Io): Promise<Collection[] | undefined> {
  const { loadCollection } = await import('@mcp-kit/collections')
  const collections: Collection[] = []
  let bad = false
  for (const file of files) {
    try {
      collections.push(await loadCollection(file, { cwd: io.cwd }))
    } catch (error) {
      if (!isKitError(error)) throw error
      bad = true
      await reportBadFile(error, io)
    }
  }
  return bad ? undefined : collections
}

function grepPattern(text: string | undefined): RegExp | undefined {
  if (text === undefined) return undefined
  try {
    return new RegExp(text, 'i')
  } catch (error) {
    throw new CliError('usage', `--grep ${JSON.stringify(text)}: ${(error as Error).message}`)
  }
}

function totalLimit(args: TestArguments): AbortSignal | undefined {
  const seconds = args['max-time']
  if (seconds === undefined) return undefined
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new CliError('usage', '--max-time must be a positive number of seconds')
  const controller = new AbortController()
  const timer = setTimeout(
    () => controller.abort(new Error(`the run's time limit of ${seconds} s (--max-time) ran out`)),
    seconds * 1000,
  )
  timer.unref()
  return controller.signal
}

export async function runTest(args: TestArguments, io: Io): Promise<number> {
  if (!Number.isFinite(args.timeout) || args.timeout <= 0)
    throw new CliError('usage', '--timeout must be a positive number of seconds')
  const targets = parseReporterFlags(args.reporter, io)
  const variables = parseEnvFlags(args.env, io.cwd)
  const grep = grepPattern(args.grep)
  const loaded = await loadAll(args.files, io)
  if (loaded === undefined) return exitCodes.usage
  const collections = await import('@mcp-kit/collections')
  const env = { ...appVariables(), ...io.env }
  // Every ${NAME} of every file is checked before the first step runs.
  for (const collection of loaded) {
    try {
      await collections.runVariables(collection, { env, variables })
    } catch (error) {
      if (!collections.CollectionError.isInstance(error)) throw error
      await reportBadFile(error, io)
      return exitCodes.usage
    }
  }
  const limit = totalLimit(args)
  const signal = limit === undefined ? io.signal : AbortSignal.any([io.signal, limit])
  const reports = await openReports(targets, io, args)
  const status = createStatus(io, args.quiet)
  const inputFor = await cliInputFor(args, io)
  const started = performance.now()
  const results: CollectionResult[] = []
  let number = 0
  let updated = 0
  let bailed = false
  try {
    for (const collection of loaded) {
      const info = { name: collection.name, file: collection.file }
      await reports.collection(info)
      if (bailed || signal.aborted) {
        const reason = bailed
          ? 'bail: an earlier step failed'
          : `the run stopped: ${(signal.reason as Error)?.message ?? ''}`
        const steps = collections.selectSteps(collection, grep).map(
          (step): StepResult => ({
            index: step.index,
            name: step.name,
            server: step.server,
            line: step.line,
            status: 'skipped',
            durationMs: 0,
            failures: [],
            skipped: reason,
          }),
        )
        for (const step of steps) await reports.step(step, info, ++number)
        results.push({ file: collection.file, name: collection.name, steps, durationMs: 0, unreachable: [] })
        continue
      }
      let result = await collections.runCollection(collection, {
        env,
        variables,
        grep,
        bail: args.bail,
        parallel: args.parallel,
        stepTimeoutMs: Math.round(args.timeout * 1000),
        signal,
        resolveReference: cliResolver(args, io),
        connect: cliConnect(args, io),
        inputFor,
        onStepStart: (step) => status.update(`${collection.name} › ${step.name}…`),
        onStep: async (step) => {
          status.clear()
          if (!args.update) await reports.step(step, info, ++number)
        },
      })
      if (args.update) {
        const rewritten = await collections.updateSnapshots(collection, result)
        if (rewritten.updated.length > 0) {
          await collections.saveCollection(rewritten.collection)
          updated += rewritten.updated.length
          writeDiagnostic(
            io,
            `updated ${rewritten.updated.length} step${rewritten.updated.length === 1 ? '' : 's'} in ${collection.file}`,
          )
          // What --update wrote down is what the server says now: those steps pass.
          result = {
            ...result,
            steps: result.steps.map((step) =>
              rewritten.passing.includes(step.index) ? { ...step, status: 'passed', failures: [] } : step,
            ),
          }
        }
        for (const step of result.steps) await reports.step(step, info, ++number)
      }
      results.push(result)
      if (args.bail && result.steps.some((step) => step.status === 'failed' || step.status === 'error'))
        bailed = true
    }
  } finally {
    status.clear()
  }
  await reports.finish(results, performance.now() - started, updated)
  if (io.signal.aborted) return exitCodes.interrupted
  if (results.some((result) => result.unreachable.length > 0)) return exitCodes.connect
  const failed = results.some((result) =>
    result.steps.some((step) => step.status === 'failed' || step.status === 'error'),
  )
  return failed ? exitCodes.failed : exitCodes.ok
}
