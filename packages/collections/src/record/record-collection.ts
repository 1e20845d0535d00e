// Recorded calls into a collection file: a new collection of them, or more steps at the end of
// one (servers added under a free name, their drift guards widened to the tools now used, the
// masks merged), so that `--record FILE` run again and again builds one collection.

import type { BaselineTool, Collection, Mask, ServerEntry, StepEntry } from '../collection-types.js'
import { addStep, createCollection, replaceStep, setField, setServer } from '../file/edit-collection.js'
import { type RecordedCall, recordedSteps } from './recorded-calls.js'

function driftStep(server: string, tools: BaselineTool[]): StepEntry {
  return {
    name: `no breaking change to the tools used (${server})`,
    server,
    list: 'tools',
    expect: { drift: { baseline: tools } },
  }
}

function sameEntry(left: ServerEntry | undefined, right: ServerEntry): boolean {
  return JSON.stringify(left) === JSON.stringify(right)
}

function mergedMasks(existing: readonly Mask[], found: readonly Mask[]): Mask[] {
  const known = new Set(
    existing.map((mask) => ('path' in mask ? `path:${mask.path}` : `pattern:${mask.pattern}`)),
  )
  return [
    ...existing,
    ...found.filter((mask) => !known.has('path' in mask ? `path:${mask.path}` : `pattern:${mask.pattern}`)),
  ]
}

/** A new collection of the recorded calls; `file` names it and decides its format (`.json`: JSON). */
export async function collectionFromCalls(
  calls: readonly RecordedCall[],
  options: { file?: string; directory?: string; name?: string } = {},
): Promise<Collection> {
  const recorded = await recordedSteps(calls)
  const drift = Object.entries(recorded.tools).map(([server, tools]) => driftStep(server, tools))
  return createCollection(
    {
      ...(options.name === undefined ? {} : { name: options.name }),
      ...(recorded.masks.length > 0 ? { masks: recorded.masks } : {}),
      servers: recorded.servers,
      steps: [...drift, ...recorded.steps],
    },
    options,
  )
}

/** The collection with the recorded calls added at its end. */
export async function appendCalls(
  collection: Collection,
  calls: readonly RecordedCall[],
): Promise<Collection> {
  // A server of the same name but another launch gets a name of its own.
  const entries = new Map<string, ServerEntry>(Object.entries(collection.document.servers))
  const aliases = new Map<string, string>()
  const named = calls.map((call) => {
    const key = `${call.server.name}\n${JSON.stringify(call.server.entry)}`
    let name = aliases.get(key)
    if (name === undefined) {
      name = call.server.name
      for (let suffix = 2; entries.has(name) && !sameEntry(entries.get(name), call.server.entry); suffix++)
        name = `${call.server.name}-${suffix}`
      entries.set(name, call.server.entry)
      aliases.set(key, name)
    }
    return name === call.server.name ? call : { ...call, server: { ...call.server, name } }
  })
  const servers = collection.document.servers
  const recorded = await recordedSteps(named)
  let result = collection
  for (const [name, entry] of Object.entries(recorded.servers))
    if (!Object.hasOwn(servers, name)) result = setServer(result, name, entry)
  for (const [server, tools] of Object.entries(recorded.tools)) {
    const guard = result.steps.find(
      (step) =>
        step.server === server &&
        step.operation.kind === 'list' &&
        Array.isArray(step.entry.expect?.drift?.baseline),
    )
    if (guard === undefined) {
      result = addStep(result, driftStep(server, tools), 0)
      continue
    }
    const baseline = guard.entry.expect?.drift?.baseline as BaselineTool[]
    const added = tools.filter((tool) => !baseline.some((known) => known.name === tool.name))
    if (added.length > 0)
      result = replaceStep(result, guard.index, {
        ...guard.entry,
        expect: {
          ...guard.entry.expect,
          drift: { ...guard.entry.expect?.drift, baseline: [...baseline, ...added] },
        },
      })
  }
  for (const step of recorded.steps) result = addStep(result, step)
  if (recorded.masks.length > 0)
    result = setField(result, 'masks', mergedMasks(result.document.masks ?? [], recorded.masks))
  return result
}
