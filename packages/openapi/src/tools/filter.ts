// Which operations become tools: `include` (default: all) then `exclude`. An entry matches an
// operation by its tool name or operationId (`getPet`, globs: `get*`), by a tag (`tag:pets`,
// `tag:admin*`), by a path prefix (`path:/repos`: `/repos` and every path under it), or by method
// and path (`GET /pets/*`, `* /admin/*`). `*` matches any run of characters, `?` one.

import type { Operation } from './operations.js'

export interface OperationFilter {
  include?: readonly string[]
  exclude?: readonly string[]
}

function glob(pattern: string): RegExp {
  const escaped = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.')
  return new RegExp(`^${escaped}$`, 's')
}

function matcher(entry: string): (operation: Operation, name: string) => boolean {
  const trimmed = entry.trim()
  if (trimmed.startsWith('tag:')) {
    const tag = glob(trimmed.slice(4))
    return (operation) => operation.tags.some((name) => tag.test(name))
  }
  if (trimmed.startsWith('path:')) {
    const prefix = trimmed.slice(5).trim().replace(/\/+$/, '')
    return (operation) => operation.path === prefix || operation.path.startsWith(`${prefix}/`)
  }
  const route = /^([A-Za-z*?]+)\s+(\/.*)$/.exec(trimmed)
  if (route) {
    const method = glob(route[1]!.toUpperCase())
    const path = glob(route[2]!)
    return (operation) => method.test(operation.method) && path.test(operation.path)
  }
  const name = glob(trimmed)
  return (operation, toolName) =>
    name.test(toolName) || (operation.operationId !== undefined && name.test(operation.operationId))
}

/** A predicate over (operation, tool name) for a filter. */
export function compileOperationFilter(
  filter: OperationFilter,
): (operation: Operation, name: string) => boolean {
  const include = filter.include?.map(matcher)
  const exclude = (filter.exclude ?? []).map(matcher)
  return (operation, name) =>
    (include === undefined || include.some((test) => test(operation, name))) &&
    !exclude.some((test) => test(operation, name))
}
