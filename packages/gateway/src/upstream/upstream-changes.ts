// What a reload changes among a gateway's upstreams: by name, those added, those removed, and
// those whose settings differ (restarted as new ones); the rest keep running, sessions and all.

import type { UpstreamOptions } from '../types.js'

export interface UpstreamChanges {
  added: string[]
  removed: string[]
  changed: string[]
  kept: string[]
}

/** The settings that decide what an upstream is: everything but functions (none in a config's). */
function settingsOf(upstream: UpstreamOptions): string {
  return JSON.stringify(upstream, (_key, value) => (typeof value === 'function' ? undefined : value))
}

export function upstreamChanges(
  before: ReadonlyMap<string, UpstreamOptions>,
  after: readonly UpstreamOptions[],
): UpstreamChanges {
  const changes: UpstreamChanges = { added: [], removed: [], changed: [], kept: [] }
  const names = new Set<string>()
  for (const upstream of after) {
    names.add(upstream.name)
    const old = before.get(upstream.name)
    if (old === undefined) changes.added.push(upstream.name)
    else if (settingsOf(old) !== settingsOf(upstream)) changes.changed.push(upstream.name)
    else changes.kept.push(upstream.name)
  }
  for (const name of before.keys()) if (!names.has(name)) changes.removed.push(name)
  return changes
}
