// Who owns a resource URI: the spaces listed URIs and templates claim, config order deciding
// overlaps, and the catalog taking back a later upstream's resources once an earlier upstream
// that owns their space is placed after it (a lazy or restarted upstream), and giving them back.

import { createToolRegistry } from '@mcp-kit/server'
import { describe, expect, test } from 'vitest'
import { Catalog } from '../../src/catalog/catalog.js'
import { resourceSpace, templateSpace, UriOwners } from '../../src/catalog/uri-owners.js'
import type { Discovery, GatewayEvent } from '../../src/types.js'
import type { Upstream } from '../../src/upstream/upstream.js'

describe('templateSpace', () => {
  test('a literal prefix past the authority claims its space; one that stops before claims nothing', () => {
    expect(templateSpace('demo://resource/dynamic/text/{id}')).toEqual({
      prefix: 'demo://resource/dynamic/text/',
      exact: false,
    })
    expect(templateSpace('file:///{+path}')).toEqual({ prefix: 'file:///', exact: false })
    expect(templateSpace('urn:isbn:{n}')).toEqual({ prefix: 'urn:isbn:', exact: false })
    expect(templateSpace('demo://a/b')).toEqual({ prefix: 'demo://a/b', exact: true })
    for (const catchAll of [
      'demo://{+anything}',
      '{+uri}',
      'repo://{owner}/x',
      'demo://res{x}',
      'mailto:{to}',
    ])
      expect(templateSpace(catchAll), catchAll).toBeUndefined()
  })
})

describe('UriOwners', () => {
  const rank = (name: string) => ['first', 'second', 'third'].indexOf(name)
  test('the first in config order whose space holds a URI owns it, whatever is more specific', () => {
    const owners = new UriOwners(rank)
    owners.set('second', [templateSpace('demo://resource/dynamic/text/7{x}')!, resourceSpace('demo://x/1')])
    owners.set('first', [templateSpace('demo://resource/{+rest}')!])
    owners.set('third', [templateSpace('demo://x/{+rest}')!])
    expect(owners.ownerOf('demo://resource/dynamic/text/7')).toBe('first')
    expect(owners.ownerOf('demo://x/1')).toBe('second')
    expect(owners.ownerOf('demo://x/2')).toBe('third')
    expect(owners.ownerOf('other://x')).toBeUndefined()
    expect(owners.claimedBefore('second', templateSpace('demo://resource/a/{b}')!)?.owner).toBe('first')
    // A broader space of a later owner holds an earlier one's, which keeps it.
    expect(
      owners.claimedBefore('third', templateSpace('demo://{+x}') ?? resourceSpace('demo://')),
    ).toBeUndefined()
    expect(owners.claimedBefore('first', templateSpace('demo://x/{+rest}')!)).toBeUndefined()
  })
})

function fakeUpstream(name: string): Upstream {
  return { name, options: { name, server: { transport: 'stdio', command: name } } } as unknown as Upstream
}

function lists(resources: string[], templates: string[]): Discovery {
  return {
    tools: [],
    prompts: [],
    resources: resources.map((uri) => ({ uri, name: uri })),
    resourceTemplates: templates.map((uriTemplate) => ({ uriTemplate, name: uriTemplate })),
    listedAt: 0,
  }
}

test('an earlier upstream placed later takes back what a later one offered inside its space, and gives it back', () => {
  const registry = createToolRegistry()
  const events: GatewayEvent[] = []
  const everything = fakeUpstream('everything')
  const hostile = fakeUpstream('hostile')
  const catalog = new Catalog(
    registry,
    (event) => events.push(event),
    (upstream) => (upstream === everything ? 0 : 1),
  )
  const hostileLists = lists(
    ['demo://resource/dynamic/text/8'],
    ['demo://resource/dynamic/text/7{x}', 'demo://{+any}'],
  )
  catalog.place(hostile, hostileLists)
  expect([...registry.resources.keys()]).toEqual(['demo://resource/dynamic/text/8'])
  expect([...registry.resourceTemplates.keys()]).toHaveLength(2)
  // server-everything comes up (it started late): its space is its own.
  catalog.place(everything, lists([], ['demo://resource/dynamic/text/{id}']))
  expect([...registry.resources.keys()]).toEqual([])
  expect([...registry.resourceTemplates.keys()].sort()).toEqual([
    'demo://resource/dynamic/text/{id}',
    'demo://{+any}',
  ])
  expect(catalog.offered(hostile)?.resourceTemplates).toEqual(['demo://{+any}'])
  expect(
    events.filter((event) => event.type === 'skipped').map((event) => (event as { what: string }).what),
  ).toEqual([
    "resource 'demo://resource/dynamic/text/8'",
    "resource template 'demo://resource/dynamic/text/7{x}'",
  ])
  // server-everything's template is gone: the hostile one's resources are offered again.
  catalog.place(everything, lists([], []))
  expect([...registry.resources.keys()]).toEqual(['demo://resource/dynamic/text/8'])
  expect(catalog.offered(hostile)?.resourceTemplates.sort()).toEqual([
    'demo://resource/dynamic/text/7{x}',
    'demo://{+any}',
  ])
})
