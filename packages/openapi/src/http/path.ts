// An operation's path template, split once at load, and filled in per call such that no value can
// change which resource is asked for: a value holding `/`, `\`, `?`, `#` or a control character
// is refused (encoded, a server may still decode it into the path), and so is a segment that would
// be `.` or `..` — also as `%2E%2E`, which URL parsers treat as a dot segment too. The URL made is
// checked once more: the base's origin, under the base's path.

import type { Parameter } from '../tools/operations.js'
import { pathValue } from './serialize.js'

/** A call refused before any request, with a message that names the parameter. */
export class RequestRefused extends Error {
  override readonly name = 'RequestRefused'
}

interface Slot {
  name: string
  parameter: Parameter | undefined
  argument: string | undefined
}

export interface PathTemplate {
  /** Literal text and parameter slots, in order. */
  pieces: Array<string | Slot>
  /** For each `/`-separated segment of the template, the slots in it (for dot segments). */
  segments: Slot[][]
}

const pathChangers = /[/\\?#\u0000-\u001f\u007f]/

export function compilePath(
  template: string,
  parameters: ReadonlyArray<{ argument: string; parameter: Parameter }>,
): PathTemplate {
  const pieces: PathTemplate['pieces'] = []
  const segments: Slot[][] = [[]]
  let rest = template
  for (;;) {
    const open = rest.indexOf('{')
    const close = open === -1 ? -1 : rest.indexOf('}', open)
    const literal = close === -1 ? rest : rest.slice(0, open)
    if (literal !== '') pieces.push(literal)
    for (let slash = literal.indexOf('/'); slash !== -1; slash = literal.indexOf('/', slash + 1))
      segments.push([])
    if (close === -1) break
    const name = rest.slice(open + 1, close)
    const found = parameters.find((entry) => entry.parameter.in === 'path' && entry.parameter.name === name)
    const slot = { name, parameter: found?.parameter, argument: found?.argument }
    pieces.push(slot)
    segments[segments.length - 1]?.push(slot)
    rest = rest.slice(close + 1)
  }
  return { pieces, segments }
}

function quoted(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text)
}

function checkValue(slot: Slot, value: unknown): void {
  const items = Array.isArray(value)
    ? value
    : typeof value === 'object' && value !== null
      ? Object.entries(value).flat()
      : [value]
  for (const item of items) {
    const text =
      typeof item === 'string' ? item : typeof item === 'object' ? JSON.stringify(item) : String(item)
    const found = pathChangers.exec(text)?.[0]
    if (found === undefined) continue
    const what = /[\u0000-\u001f\u007f]/.test(found) ? 'a control character' : `'${found}'`
    throw new RequestRefused(
      `parameter '${slot.argument ?? slot.name}': ${quoted(value)} holds ${what}, which could change the request's path; nothing was sent`,
    )
  }
}

/** The path with every slot filled in and encoded; throws RequestRefused for a value that moves it. */
export function expandPath(template: PathTemplate, args: Readonly<Record<string, unknown>>): string {
  const filled = new Map<Slot, string>()
  let path = ''
  for (const piece of template.pieces) {
    if (typeof piece === 'string') {
      path += piece
      continue
    }
    let value = piece.argument === undefined ? undefined : args[piece.argument]
    if (value === undefined) {
      path += `{${piece.name}}`
      continue
    }
    const parameter = piece.parameter as Parameter
    if (parameter.json) value = JSON.stringify(value)
    checkValue(piece, value)
    const encoded = pathValue(parameter.name, value, parameter.style, parameter.explode)
    filled.set(piece, encoded)
    path += encoded
  }
  // A segment that is only dots, once `%2E`s are read as dots, is a dot segment to URL parsers.
  const parts = path.split('/')
  template.segments.forEach((slots, index) => {
    if (slots.length === 0 || !slots.some((slot) => filled.has(slot))) return
    const segment = (parts[index] ?? '').replace(/%2e/gi, '.')
    if (segment !== '.' && segment !== '..') return
    const names = slots.map((slot) => `'${slot.argument ?? slot.name}'`).join(', ')
    throw new RequestRefused(
      `parameter ${names}: the path segment would be ${JSON.stringify(segment)}, which climbs the API's path; nothing was sent`,
    )
  })
  return path
}
