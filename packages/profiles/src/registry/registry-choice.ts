// Which of a registry entry's launches to run: its packages and remotes in the entry's order, or
// those a choice names — `package` or `remote`, a registry type (`npm`, `oci`…) or a transport
// type (`streamable-http`, `sse`), or one by its number, `package:2` or `remote:1` (1-based, as
// `mcp-kit registry show` numbers them).

import { isRecord } from '@mcp-kit/core'
import { ProfileError } from '../errors.js'
import type { RegistryPackage, RegistryServer, RegistryTransport } from '../registry-types.js'

/** One of an entry's launches and the choice that names exactly it (`package:1`). */
export interface RegistryCandidate {
  kind: 'package' | 'remote'
  item: RegistryPackage | RegistryTransport
  choice: string
}

const choicePattern = /^(?:(package|remote)(?::([1-9][0-9]{0,3}))?|[a-z][a-z0-9-]{0,39})$/

/** True for text that can name a launch (it may still name none of a given entry's). */
export function isRegistryChoice(choice: string): boolean {
  return choicePattern.test(choice)
}

/** The entry's launches a choice names (all of them, packages first, without one). */
export function registryCandidates(server: RegistryServer, choose: string | undefined): RegistryCandidate[] {
  const list = (kind: RegistryCandidate['kind'], items: unknown): RegistryCandidate[] =>
    (Array.isArray(items) ? items : []).flatMap((item, index) =>
      isRecord(item) ? [{ kind, item: item as RegistryPackage, choice: `${kind}:${index + 1}` }] : [],
    )
  const all = [...list('package', server.packages), ...list('remote', server.remotes)]
  if (choose === undefined) return all
  const match = choicePattern.exec(choose)
  if (match === null)
    throw new ProfileError(
      'invalid_reference',
      `${JSON.stringify(choose.slice(0, 80))} is not a launch choice: package, remote, a registry or transport type (npm, oci, streamable-http…), package:N or remote:N`,
      { details: { choice: choose } },
    )
  if (match[1] !== undefined)
    return all.filter(
      (candidate) => candidate.kind === match[1] && (match[2] === undefined || candidate.choice === choose),
    )
  return all.filter((candidate) =>
    candidate.kind === 'package'
      ? (candidate.item as RegistryPackage).registryType === choose
      : (candidate.item as RegistryTransport).type === choose,
  )
}
