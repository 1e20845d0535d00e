// Which steps a run runs: those `grep` and `only` pick, and the steps whose captures they use
// (the last earlier step that captures each name), in file order.

import type { Collection, Step } from '../collection-types.js'

function pattern(grep: string | RegExp): RegExp {
  return typeof grep === 'string' ? new RegExp(grep, 'i') : grep
}

/** The steps to run: those `grep` and `only` pick, and those whose captures they use, in file order. */
export function selectSteps(
  collection: Collection,
  grep: string | RegExp | undefined,
  only?: readonly number[],
): Step[] {
  if (grep === undefined && only === undefined) return collection.steps
  const matcher = grep === undefined ? undefined : pattern(grep)
  const chosen = new Set(
    collection.steps.filter(
      (step) =>
        (only === undefined || only.includes(step.index)) &&
        (matcher === undefined ||
          matcher.test(step.name) ||
          matcher.test(`${collection.name} › ${step.name}`)),
    ),
  )
  for (const step of [...collection.steps].reverse()) {
    if (!chosen.has(step)) continue
    for (const { source } of captureSources(collection, step)) if (source !== undefined) chosen.add(source)
  }
  return collection.steps.filter((step) => chosen.has(step))
}

/**
 * The step each `${NAME}` of `step` takes its value from: the last earlier step that captures the
 * name — on the step's own server when servers run in parallel (`sameServer`), and undefined then
 * when only another server's step captures it.
 */
export function captureSources(
  collection: Collection,
  step: Step,
  sameServer = false,
): Array<{ name: string; source: Step | undefined }> {
  return step.uses.map((name) => ({
    name,
    source: collection.steps.findLast(
      (candidate) =>
        candidate.index < step.index &&
        Object.hasOwn(candidate.entry.capture ?? {}, name) &&
        (!sameServer || candidate.server === step.server),
    ),
  }))
}
