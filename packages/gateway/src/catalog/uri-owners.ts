// Which upstream a resource URI belongs to. An upstream claims URI spaces: each URI it lists (that
// URI alone), and each template's literal prefix (the text before its first expression) when that
// prefix reaches past the URI's scheme and authority (`demo://resource/dynamic/text/`, `file:///`,
// `urn:isbn:`). A template whose first expression is in the scheme or the authority
// (`demo://{+anything}`, `{+uri}`, `repo://{owner}/…`) claims nothing: it can match any
// authority, so it only serves URIs no upstream claims. Where spaces overlap, the upstream first in
// the gateway's list (config order) owns them, whatever their specificity: a later upstream's URI
// or template inside an earlier one's space is refused, and a read inside a space goes to its owner.

/** A URI space: one URI (`exact`), or every URI starting with `prefix`. */
export interface UriSpace {
  prefix: string
  exact: boolean
}

/** The space a listed resource claims: its URI. */
export function resourceSpace(uri: string): UriSpace {
  return { prefix: uri, exact: true }
}

/** The space a template claims, or undefined when its literal prefix does not fix an authority. */
export function templateSpace(uriTemplate: string): UriSpace | undefined {
  const brace = uriTemplate.indexOf('{')
  if (brace === -1) return { prefix: uriTemplate, exact: true }
  const prefix = uriTemplate.slice(0, brace)
  return fixesAuthority(prefix) ? { prefix, exact: false } : undefined
}

/** True when every URI starting with `prefix` has the same scheme and authority. */
function fixesAuthority(prefix: string): boolean {
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/.exec(prefix)
  if (scheme === null) return false
  const rest = prefix.slice(scheme[0].length)
  if (!rest.startsWith('//')) return rest.length > 0
  return /[/?#]/.test(rest.slice(2))
}

function contains(space: UriSpace, uri: string): boolean {
  return space.exact ? uri === space.prefix : uri.startsWith(space.prefix)
}

/** True when every URI of `inner` is in `outer`. */
function inside(inner: UriSpace, outer: UriSpace): boolean {
  if (outer.exact) return inner.exact && inner.prefix === outer.prefix
  return inner.prefix.startsWith(outer.prefix)
}

/** The spaces each owner claims, and who owns a URI. `rank`: the owner's place in config order. */
export class UriOwners<Owner> {
  readonly #claims = new Map<Owner, readonly UriSpace[]>()
  readonly #rank: (owner: Owner) => number

  constructor(rank: (owner: Owner) => number) {
    this.#rank = rank
  }

  /** Sets what `owner` claims (replacing what it claimed before). */
  set(owner: Owner, spaces: readonly UriSpace[]): void {
    if (spaces.length === 0) this.#claims.delete(owner)
    else this.#claims.set(owner, spaces)
  }

  /** The owner of `uri`: first in config order among those whose spaces contain it. */
  ownerOf(uri: string): Owner | undefined {
    let found: Owner | undefined
    for (const [owner, spaces] of this.#claims) {
      if (found !== undefined && this.#rank(owner) >= this.#rank(found)) continue
      if (spaces.some((space) => contains(space, uri))) found = owner
    }
    return found
  }

  /** An owner before `owner` in config order whose space holds all of `space`, with that space. */
  claimedBefore(owner: Owner, space: UriSpace): { owner: Owner; space: UriSpace } | undefined {
    const rank = this.#rank(owner)
    for (const [other, spaces] of this.#claims) {
      if (other === owner || this.#rank(other) >= rank) continue
      const outer = spaces.find((candidate) => inside(space, candidate))
      if (outer !== undefined) return { owner: other, space: outer }
    }
    return undefined
  }

  /** True when `owner` claims something that an earlier owner's spaces hold now. */
  overlapsEarlier(owner: Owner): boolean {
    return (this.#claims.get(owner) ?? []).some((space) => this.claimedBefore(owner, space) !== undefined)
  }
}
