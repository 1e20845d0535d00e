// The seeded case generator. Case `i` of seed `s` is fast-check's sample of `caseArbitrary` for a
// seed mixed from both, so any one case can be regenerated on its own (`--seed s --case i`).
// A case is a plain recipe (JSON, written to the failure file as it is): which server it goes
// to, the JSON-RPC message(s) with the structural and byte-level damage to do to them, the
// headers to drop or garble, and how the bytes go on the wire. materialize.js turns a recipe
// into bytes once the live session ids and the port are known.

import fc from 'fast-check'
import { targets } from './registry.js'

export const modernVersion = '2026-07-28'
export const legacyVersions = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']

const metaKeys = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  logLevel: 'io.modelcontextprotocol/logLevel',
}

const sharedMethods = [
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
]
const legacyOnly = ['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe']
const modernOnly = ['server/discover', 'subscriptions/listen']
const notificationMethods = [
  'notifications/initialized',
  'notifications/cancelled',
  'notifications/progress',
  'notifications/roots/list_changed',
  'notifications/message',
]
const strangeMethods = [
  '',
  ' ',
  'constructor',
  '__proto__',
  'toString',
  'rpc.discover',
  'tools/',
  'TOOLS/LIST',
  'tools/list\u0000',
]
const levels = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']
const strangeStrings = [
  '',
  ' ',
  '\u0000',
  '\ud800',
  '\udfff',
  '\u202e',
  '\u001b[2J',
  '../../etc/passwd',
  '%00',
  '{}',
  '=?base64?AAAA?=',
  '\r\nSet-Cookie: x=1',
  'é',
  '🙂',
  'constructor',
  '__proto__',
]
const strangeUris = [
  'fuzz://items/',
  'fuzz://items/%00',
  'fuzz://items/../../x',
  'fuzz://items/1/2',
  'fuzz://',
  'file:///etc/passwd',
  'javascript:alert(1)',
  'http://localhost/',
  'fuzz://README',
  'fuzz://readme?x=1#y',
]
const rawNumbers = [
  '1e999',
  '-1e999',
  '123456789012345678901234567890',
  '9007199254740993',
  '-9007199254740993',
  '-0',
  '1.0',
  '1e2',
  '0.1e-400',
  '4.9e-324',
  '1.7976931348623157e308',
]

/** Helpers over fast-check's `gen`: every choice a case makes is drawn through them. */
function chooser(g) {
  // Values (ids, sizes, numbers) keep fast-check's bias towards edges; choices between branches
  // must not, or the weights would mean nothing.
  const int = (min, max) => g(fc.integer, { min, max })
  const roll = (below) => g(() => fc.noBias(fc.integer({ min: 0, max: below - 1 })))
  const pick = (list) => list[roll(list.length)]
  const chance = (percent) => roll(10_000) < percent * 100
  const fraction = () => roll(1_000_000) / 1_000_000
  const weighted = (pairs) => {
    const total = pairs.reduce((sum, [, weight]) => sum + weight, 0)
    let left = (roll(1_000_000) / 1_000_000) * total
    let chosen = pairs[pairs.length - 1][0]
    for (const [value, weight] of pairs) {
      if (left < weight) {
        chosen = value
        break
      }
      left -= weight
    }
    // A function stands for a value to draw only when chosen.
    return typeof chosen === 'function' ? chosen() : chosen
  }
  const string = (maxLength = 24) =>
    weighted([
      [() => g(fc.string, { maxLength }), 50],
      [() => g(fc.string, { unit: 'binary', maxLength }), 30],
      [() => g(fc.string, { unit: 'binary-ascii', maxLength }), 10],
      [() => pick(strangeStrings), 10],
    ])
  const json = (maxDepth = 3) => g(fc.jsonValue, { maxDepth })
  return { g, int, pick, chance, fraction, weighted, string, json }
}

/** A JSON-RPC id: mostly valid, sometimes of a type no id may have, or a number JSON cannot keep. */
function idFor(r) {
  return r.weighted([
    [() => r.int(0, 100_000), 45],
    [() => r.string(12), 20],
    [() => r.int(-2_147_483_648, 2_147_483_647), 6],
    [() => `__NUM:${r.pick(rawNumbers)}__`, 6],
    [() => r.pick([null, 1.5, true, false, {}, [], [1], { id: 1 }, Number.MAX_SAFE_INTEGER]), 10],
    [() => `__LONG:${r.pick([1000, 65_536, 300_000])}__`, 2],
    [() => undefined, 6],
    [() => '', 5],
  ])
}

function capabilitiesFor(r) {
  return r.weighted([
    [() => ({}), 40],
    [() => ({ elicitation: {} }), 10],
    [() => ({ elicitation: { form: {}, url: {} }, roots: {}, sampling: {} }), 10],
    [() => ({ roots: { listChanged: true } }), 5],
    [() => r.json(2), 15],
    [() => ({ elicitation: r.json(1) }), 5],
    [() => undefined, 15],
  ])
}

/** Arguments for a tool: valid for its schema most of the time, anything otherwise. */
function argumentsFor(r, tool) {
  if (r.chance(25))
    return r.weighted([
      [() => r.json(3), 70],
      [() => r.pick([null, [], 'x', 3]), 20],
      [() => undefined, 10],
    ])
  switch (tool) {
    case 'echo':
      return {
        message: r.weighted([
          [() => r.string(40), 80],
          [() => r.json(1), 15],
          [() => `__LONG:${r.pick([10_000, 500_000])}__`, 5],
        ]),
      }
    case 'add':
      return {
        a: r.weighted([
          [() => r.int(-1e6, 1e6), 60],
          [() => g2double(r), 25],
          [() => `__NUM:${r.pick(rawNumbers)}__`, 10],
          [() => r.string(4), 5],
        ]),
        b: r.weighted([
          [() => r.int(-1e6, 1e6), 70],
          [() => `__NUM:${r.pick(rawNumbers)}__`, 15],
          [() => r.json(1), 15],
        ]),
      }
    case 'shapes': {
      const args = {
        count: r.weighted([
          [() => r.int(-5, 105), 80],
          [() => r.json(1), 20],
        ]),
      }
      if (r.chance(60))
        args.tags = r.weighted([
          [() => r.g(fc.array, fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 7 }), 80],
          [() => r.json(2), 20],
        ])
      if (r.chance(50))
        args.nested = {
          deep: {
            word: r.weighted([
              [() => r.pick(['abc', 'z']), 60],
              [() => r.string(10), 40],
            ]),
          },
        }
      if (r.chance(40))
        args.choice = r.weighted([
          [() => r.string(14), 40],
          [() => r.int(-10, 10), 40],
          [() => r.json(1), 20],
        ])
      if (r.chance(30))
        args.ratio = r.weighted([
          [() => g2double(r), 70],
          [() => `__NUM:${r.pick(rawNumbers)}__`, 30],
        ])
      if (r.chance(30))
        args.flag = r.weighted([
          [() => r.pick([true, false]), 70],
          [() => r.json(1), 30],
        ])
      if (r.chance(30)) args.anything = r.json(4)
      if (r.chance(10)) args[r.string(8)] = r.json(1)
      return args
    }
    case 'routed': {
      const args = {}
      if (r.chance(90))
        args.region = r.weighted([
          [() => r.pick(['eu', 'us-east-1']), 50],
          [() => r.string(20), 40],
          [() => r.json(1), 10],
        ])
      if (r.chance(60))
        args.priority = r.weighted([
          [() => r.int(-3, 1000), 70],
          [() => `__NUM:${r.pick(rawNumbers)}__`, 15],
          [() => r.json(1), 15],
        ])
      if (r.chance(50))
        args.dry = r.weighted([
          [() => r.pick([true, false]), 80],
          [() => r.json(1), 20],
        ])
      if (r.chance(30)) args.note = r.string(30)
      return args
    }
    case 'progress':
      return {
        steps: r.weighted([
          [() => r.int(0, 5), 85],
          [() => r.json(1), 15],
        ]),
      }
    case 'ask':
      return r.chance(50) ? {} : { question: r.string(30) }
    case 'odd':
      return { kind: r.int(0, 11) }
    case 'big':
      return {
        bytes: r.weighted([
          [() => r.int(0, 200_000), 85],
          [() => r.pick([1_048_576, 1_048_577, -1]), 15],
        ]),
      }
    case 'slow':
      return {
        ms: r.weighted([
          [() => r.int(0, 200), 85],
          [() => r.pick([300, 301, -1, 1e9]), 15],
        ]),
      }
    default:
      return r.chance(50) ? {} : r.json(2)
  }
}

function g2double(r) {
  return r.g(fc.double, { noNaN: true })
}

/** params of a method, valid-ish; `era` decides whether `_meta` carries the 2026-07-28 envelope. */
function paramsFor(r, method, era) {
  let params
  switch (method) {
    case 'tools/call': {
      const name = r.weighted([
        [() => r.pick(targets.tools), 85],
        [() => r.string(20), 12],
        [() => `__LONG:${r.pick([300, 70_000])}__`, 3],
      ])
      params = { name, arguments: argumentsFor(r, name) }
      if (era === 'modern' && (name === 'ask' || name === 'roots') && r.chance(50)) {
        // A retry of a multi-round request: answers, and a requestState that is forged or absent.
        params.inputResponses = r.weighted([
          [
            () => ({
              'elicitation-1': { action: r.pick(['accept', 'decline', 'cancel']), content: { name: 'x' } },
            }),
            40,
          ],
          [() => ({ 'roots-1': { roots: [] } }), 10],
          [() => r.json(2), 30],
          [() => ({ 'elicitation-1': r.json(2) }), 20],
        ])
        if (r.chance(50))
          params.requestState = r.weighted([
            [() => r.string(60), 60],
            [() => `v1.${r.string(40)}.${r.string(10)}`, 40],
          ])
      }
      break
    }
    case 'resources/read':
    case 'resources/subscribe':
    case 'resources/unsubscribe':
      params = {
        uri: r.weighted([
          [() => r.pick(targets.resources), 60],
          [() => `fuzz://items/${r.string(10)}`, 15],
          [() => r.pick(strangeUris), 12],
          [() => `fuzz://items/__LONG:${r.pick([300, 70_000])}__`, 3],
          [() => r.json(1), 10],
        ]),
      }
      break
    case 'prompts/get': {
      const name = r.weighted([
        [() => r.pick(targets.prompts), 85],
        [() => r.string(12), 12],
        [() => `__LONG:${r.pick([300, 70_000])}__`, 3],
      ])
      params = {
        name,
        arguments: r.weighted([
          [() => ({ name: r.string(20) }), 30],
          [() => ({ text: r.string(20), style: r.pick(['short', 'long', r.string(6)]) }), 30],
          [() => ({}), 10],
          [() => r.json(2), 20],
          [() => undefined, 10],
        ]),
      }
      break
    }
    case 'completion/complete':
      params = {
        ref: r.weighted([
          [() => ({ type: 'ref/prompt', name: r.pick([...targets.prompts, r.string(8)]) }), 40],
          [
            () => ({
              type: 'ref/resource',
              uri: r.pick(['fuzz://items/{id}', 'fuzz://readme', r.string(12)]),
            }),
            40,
          ],
          [() => r.json(2), 20],
        ]),
        argument: r.weighted([
          [() => ({ name: r.pick(['id', 'style', 'name', r.string(6)]), value: r.string(8) }), 80],
          [() => r.json(2), 20],
        ]),
      }
      if (r.chance(30))
        params.context = {
          arguments: r.weighted([
            [() => ({ text: 'x' }), 60],
            [() => r.json(2), 40],
          ]),
        }
      break
    case 'logging/setLevel':
      params = {
        level: r.weighted([
          [() => r.pick(levels), 70],
          [() => r.json(1), 30],
        ]),
      }
      break
    case 'initialize':
      params = {
        protocolVersion: r.weighted([
          [() => r.pick(legacyVersions), 60],
          [() => r.pick([modernVersion, '2099-01-01', '1.0']), 15],
          [() => r.json(1), 25],
        ]),
        capabilities: capabilitiesFor(r),
        clientInfo: r.weighted([
          [() => ({ name: 'fuzz', version: '1' }), 70],
          [() => r.json(2), 20],
          [() => undefined, 10],
        ]),
      }
      break
    case 'subscriptions/listen':
      params = {
        notifications: r.weighted([
          [
            () => ({
              toolsListChanged: true,
              promptsListChanged: r.pick([true, false]),
              resourceSubscriptions: ['fuzz://cached'],
            }),
            50,
          ],
          [
            () => ({ resourceSubscriptions: r.g(fc.array, fc.string({ maxLength: 20 }), { maxLength: 5 }) }),
            20,
          ],
          [() => r.json(2), 20],
          [() => undefined, 10],
        ]),
      }
      break
    case 'notifications/cancelled':
      params = {
        requestId: r.weighted([
          [() => r.int(0, 50), 50],
          [() => r.pick(['mcp-kit-0', 'mcp-kit-1']), 20],
          [() => r.json(1), 30],
        ]),
        reason: r.string(10),
      }
      break
    case 'notifications/progress':
      params = { progressToken: r.json(1), progress: r.json(1) }
      break
    default:
      params = r.weighted([
        [() => ({}), 50],
        [
          () => ({
            cursor: r.weighted([
              [() => r.string(10), 70],
              [() => r.json(1), 30],
            ]),
          }),
          25,
        ],
        [() => undefined, 25],
      ])
  }
  if (r.chance(15)) {
    params = params ?? {}
    params._meta = {
      ...(params._meta ?? {}),
      progressToken: r.weighted([
        [() => r.int(0, 100), 60],
        [() => r.string(8), 25],
        [() => r.json(1), 15],
      ]),
    }
  }
  if (era === 'modern') {
    params = params ?? {}
    const meta = {
      ...(params._meta ?? {}),
      [metaKeys.protocolVersion]: modernVersion,
      [metaKeys.clientCapabilities]: r.chance(85) ? (capabilitiesFor(r) ?? {}) : undefined,
    }
    if (r.chance(30))
      meta[metaKeys.clientInfo] = r.weighted([
        [() => ({ name: 'fuzz', version: '1' }), 70],
        [() => r.json(1), 30],
      ])
    if (r.chance(20))
      meta[metaKeys.logLevel] = r.weighted([
        [() => r.pick(levels), 70],
        [() => r.json(1), 30],
      ])
    if (r.chance(12))
      meta[metaKeys.protocolVersion] = r.weighted([
        [() => r.pick([...legacyVersions, '2099-01-01', '']), 60],
        [() => r.json(1), 40],
      ])
    params._meta = meta
  }
  return params
}

/** One JSON-RPC message of an era: a request mostly, sometimes a notification or a response. */
export function messageFor(r, era) {
  const shape = r.weighted([
    ['request', 82],
    ['notification', 9],
    ['response', 5],
    ['junk', 4],
  ])
  if (shape === 'junk') return r.json(3)
  if (shape === 'response') {
    const message = {
      jsonrpc: '2.0',
      id: r.weighted([
        [() => `mcp-kit-${r.int(0, 3)}`, 50],
        [() => idFor(r), 50],
      ]),
    }
    if (r.chance(60))
      message.result = r.weighted([
        [() => ({ action: 'accept', content: { name: 'x' } }), 40],
        [() => ({ roots: [] }), 20],
        [() => r.json(2), 40],
      ])
    else
      message.error = r.weighted([
        [() => ({ code: -1, message: 'no' }), 60],
        [() => r.json(2), 40],
      ])
    return message
  }
  if (shape === 'notification') {
    const method = r.weighted([
      [() => r.pick(notificationMethods), 85],
      [() => r.string(20), 15],
    ])
    const message = {
      jsonrpc: '2.0',
      method,
      params: paramsFor(r, method, era === 'modern' && r.chance(30) ? 'modern' : 'legacy'),
    }
    return message
  }
  const method = r.weighted([
    [() => r.pick(sharedMethods), 70],
    [() => r.pick(era === 'modern' ? modernOnly : legacyOnly), 15],
    [() => r.pick(era === 'modern' ? legacyOnly : modernOnly), 4],
    [() => r.pick(strangeMethods), 4],
    [() => r.string(30), 7],
  ])
  const message = { jsonrpc: '2.0', id: idFor(r), method, params: paramsFor(r, method, era) }
  return message
}

/** Damage done to the message object before it is serialized. */
function structuralMutation(r) {
  return r.weighted([
    [{ type: 'none' }, 55],
    [() => ({ type: 'replace', field: r.pick(['jsonrpc', 'id', 'method', 'params']), value: r.json(2) }), 12],
    [() => ({ type: 'drop', field: r.pick(['jsonrpc', 'id', 'method', 'params']) }), 6],
    [
      () => ({
        type: 'add',
        field: r.pick(['result', 'error', '__proto__', 'constructor', 'extra', r.string(6)]),
        value: r.json(2),
      }),
      6,
    ],
    [
      () => ({
        type: 'deep',
        depth: r.pick([30, 127, 128, 129, 130, 1000, 20_000, 200_000]),
        bracket: r.pick(['[', '{"a":']),
      }),
      8,
    ],
    [() => ({ type: 'long', length: r.pick([70_000, 1_000_000]) }), 3],
    [() => ({ type: 'wide', count: r.pick([1000, 50_000]) }), 3],
    [() => ({ type: 'params-type', value: r.pick([[], 'x', 0, true, null]) }), 7],
  ])
}

/** Damage done to the serialized bytes. */
function byteMutation(r) {
  return r.weighted([
    [{ type: 'none' }, 62],
    [() => ({ type: 'truncate', at: r.fraction() }), 10],
    [
      () => ({
        type: 'invalid-utf8',
        at: r.fraction(),
        bytes: r.pick([
          [0xff],
          [0xc3, 0x28],
          [0xed, 0xa0, 0x80],
          [0xf8, 0x88, 0x80, 0x80, 0x80],
          [0xe2, 0x82],
          [0x00],
          [0xc0, 0xaf],
        ]),
      }),
      8,
    ],
    [{ type: 'bom' }, 3],
    [() => ({ type: 'trailing', text: r.pick([' ', '\n\n', 'garbage', '{}', ',', '\u0000']) }), 5],
    [
      () => ({ type: 'duplicate-key', key: r.pick(['id', 'method', 'jsonrpc', 'params']), value: r.json(1) }),
      5,
    ],
    [() => ({ type: 'whitespace', text: r.pick(['\t', '\r\n', '   ', '\u00a0', '\u2028']) }), 4],
    [() => ({ type: 'replace-byte', at: r.fraction(), byte: r.int(0, 255) }), 3],
  ])
}

const knownHeaders = [
  'content-type',
  'accept',
  'host',
  'origin',
  'mcp-session-id',
  'mcp-protocol-version',
  'mcp-method',
  'mcp-name',
  'mcp-param-region',
  'mcp-param-priority',
  'mcp-param-dry',
  'authorization',
  'last-event-id',
  'content-length',
  'transfer-encoding',
  'connection',
  'expect',
  'content-encoding',
  'access-control-request-headers',
]

function headerValue(r, name) {
  const pools = {
    'content-type': [
      'application/json',
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/json;charset=latin1',
      'text/plain',
      'application/jsonx',
      'application/json-rpc',
      'multipart/form-data; boundary=x',
      '',
    ],
    accept: [
      'application/json, text/event-stream',
      'text/event-stream, application/json',
      'application/json',
      'text/event-stream',
      '*/*',
      'application/*',
      'text/html',
      'application/json;q=0, text/event-stream;q=0',
      'application/json;q=0.5, text/event-stream;q=0.9',
      'application/json;q=abc',
      'text/event-stream;q=0',
      '',
    ],
    host: [
      'evil.example',
      'localhost',
      'localhost:1',
      '127.0.0.1',
      '[::1]',
      '127.0.0.1.nip.io',
      'localhost.',
      '',
      'LOCALHOST',
    ],
    origin: [
      'http://localhost',
      'http://127.0.0.1:1',
      'https://evil.example',
      'null',
      'http://localhost.evil.example',
      'file://',
      '',
    ],
    'mcp-session-id': ['', 'x'.repeat(300), '00000000-0000-0000-0000-000000000000', '../', 'é'],
    'mcp-protocol-version': [modernVersion, ...legacyVersions, '2099-01-01', '2026-07-28 ', 'latest', ''],
    'mcp-method': [...sharedMethods, 'ping', '', 'TOOLS/LIST'],
    'mcp-name': [
      'echo',
      'fuzz://readme',
      '=?base64?ZWNobw==?=',
      '=?base64?!!!?=',
      '=?base64?/w==?=',
      '',
      'x'.repeat(9000),
    ],
    'mcp-param-region': ['eu', '=?base64?ZXU=?=', '', 'us-east-1'],
    'mcp-param-priority': ['1', '01', ' 1', '1.0', '1e0', 'NaN', ''],
    'mcp-param-dry': ['true', 'false', 'TRUE', '1', ''],
    authorization: ['Bearer x', 'Basic Zm9vOmJhcg==', 'Bearer', ''],
    'last-event-id': ['0', '1:1', 'x', '999999999', ''],
    'content-length': ['0', '-1', '1e3', 'abc', '99999999999999999999', '1, 2'],
    'transfer-encoding': ['chunked', 'gzip', 'chunked, identity', 'identity'],
    connection: ['close', 'keep-alive', 'upgrade'],
    expect: ['100-continue', 'nonsense'],
    'content-encoding': ['gzip', 'br', 'identity'],
    'access-control-request-headers': ['mcp-param-region, x-other', 'mcp-param-%, mcp-param-a'],
  }
  return r.weighted([
    [() => r.pick(Object.hasOwn(pools, name) ? pools[name] : ['x']), 65],
    [() => r.g(fc.string, { unit: 'binary-ascii', maxLength: 30 }).replace(/[\r\n]/g, ''), 20],
    [() => r.g(fc.string, { maxLength: 30 }), 10],
    [() => 'a'.repeat(r.pick([8000, 20_000, 70_000])), 5],
  ])
}

function headerMutations(r) {
  const count = r.weighted([
    [0, 45],
    [1, 35],
    [2, 13],
    [3, 7],
  ])
  const mutations = []
  for (let index = 0; index < count; index += 1) {
    mutations.push(
      r.weighted([
        [() => ({ op: 'drop', name: r.pick(knownHeaders) }), 35],
        [
          () => {
            const name = r.pick(knownHeaders)
            return { op: 'set', name, value: headerValue(r, name) }
          },
          45,
        ],
        [
          () => {
            const name = r.weighted([
              [() => r.pick(knownHeaders), 60],
              [() => r.pick(['x-fuzz', 'mcp-param-x', 'Mcp-Session-Id ', 'a b', 'é']), 20],
              [
                () =>
                  r
                    .g(fc.string, { unit: 'binary-ascii', minLength: 1, maxLength: 12 })
                    .replace(/[\r\n:]/g, 'x'),
                20,
              ],
            ])
            return { op: 'add', name, value: headerValue(r, name.toLowerCase()) }
          },
          20,
        ],
      ]),
    )
  }
  return mutations
}

/** How the bytes go on the wire. */
function wireMode(r) {
  return r.weighted([
    [{ type: 'normal' }, 84],
    [() => ({ type: 'split', pieces: r.int(2, 4), delayMs: r.int(0, 30) }), 5],
    [() => ({ type: 'chunked', pieces: r.int(1, 4) }), 3],
    [() => ({ type: 'chunked-bad', variant: r.pick(['size', 'no-terminator-fin', 'extension']) }), 1],
    [() => ({ type: 'length-short', by: r.int(1, 20) }), 2],
    [() => ({ type: 'length-long', by: r.int(1, 100_000), fin: true }), 2],
    [() => ({ type: 'length-long', by: r.int(1, 10), fin: false }), 0.3],
    [() => ({ type: 'head-only', fin: true, cut: r.fraction() }), 1],
    [{ type: 'smuggle' }, 0.7],
    [{ type: 'http10' }, 0.5],
    [{ type: 'expect-continue' }, 0.5],
  ])
}

function postMessageCase(r, era) {
  // A third of the messages go undamaged (only their content is random), so that the handlers,
  // not just the gates in front of them, see a fair share of the cases.
  const clean = r.chance(33)
  return {
    message: messageFor(r, era),
    structural: clean ? { type: 'none' } : structuralMutation(r),
    bytes: clean ? { type: 'none' } : byteMutation(r),
    headers: clean ? [] : headerMutations(r),
    wire: clean ? { type: 'normal' } : wireMode(r),
    accept: r.weighted([
      ['both', 70],
      ['sse-first', 12],
      ['json', 12],
      ['sse', 6],
    ]),
  }
}

function httpCase(r, target) {
  const kind = r.weighted([
    ['modern', 34],
    ['legacy', target === 'stateless' ? 30 : 24],
    ['session', target === 'stateless' ? 0 : 10],
    ['get', 6],
    ['delete', 3],
    ['raw', 8],
    ['batch', 4],
    ['big', 1],
    ['route', 4],
    ['options', 2],
  ])
  switch (kind) {
    case 'modern':
      return { kind, ...postMessageCase(r, 'modern') }
    case 'legacy':
      return {
        kind,
        session: r.weighted([
          [() => ({ type: 'pool', index: r.int(0, 3) }), 75],
          [{ type: 'none' }, 8],
          [() => ({ type: 'bogus', id: r.string(40) }), 10],
          [{ type: 'deleted' }, 7],
        ]),
        versionHeader: r.weighted([
          ['session', 70],
          ['none', 20],
          ['other', 10],
        ]),
        ...postMessageCase(r, 'legacy'),
      }
    case 'session': {
      const initialize = {
        jsonrpc: '2.0',
        id: r.weighted([
          [() => r.int(0, 10), 80],
          [() => idFor(r), 20],
        ]),
        method: 'initialize',
        params: paramsFor(r, 'initialize', 'legacy'),
      }
      const followUps = []
      const count = r.int(0, 3)
      for (let index = 0; index < count; index += 1) followUps.push(postMessageCase(r, 'legacy'))
      return {
        kind,
        initialize,
        initializeMutation: r.chance(20) ? structuralMutation(r) : { type: 'none' },
        headers: r.chance(15) ? headerMutations(r) : [],
        accept: r.weighted([
          ['both', 70],
          ['sse-first', 15],
          ['json', 15],
        ]),
        followUps,
        answers: r.pick(['accept', 'decline', 'error', 'invalid']),
        deleteAfter: r.chance(95),
      }
    }
    case 'get':
      return {
        kind,
        session: r.weighted([
          [() => ({ type: 'pool', index: r.int(0, 3) }), 60],
          [{ type: 'none' }, 12],
          [() => ({ type: 'bogus', id: r.string(40) }), 14],
          [{ type: 'deleted' }, 6],
          [{ type: 'fresh' }, 8],
        ]),
        accept: r.weighted([
          ['sse', 60],
          ['both', 15],
          ['json', 10],
          ['none', 5],
          ['other', 10],
        ]),
        lastEventId: r.weighted([
          [undefined, 70],
          [() => r.pick(['0', '1', 'x', `${r.int(0, 99)}`]), 20],
          [() => r.string(20), 10],
        ]),
        versionHeader: r.weighted([
          ['session', 70],
          ['none', 15],
          ['other', 15],
        ]),
        headers: headerMutations(r),
        streamMs: r.int(20, 150),
      }
    case 'delete':
      return {
        kind,
        session: r.weighted([
          [{ type: 'fresh' }, 45],
          [{ type: 'none' }, 15],
          [() => ({ type: 'bogus', id: r.string(40) }), 20],
          [{ type: 'deleted' }, 10],
          [() => ({ type: 'pool', index: r.int(0, 3) }), 10],
        ]),
        headers: headerMutations(r),
      }
    case 'raw':
      return {
        kind,
        method: r.weighted([
          ['POST', 80],
          [() => r.pick(['GET', 'PUT', 'PATCH', 'DELETE', 'HEAD']), 20],
        ]),
        body: r.weighted([
          [() => ({ type: 'text', text: r.g(fc.string, { unit: 'binary', maxLength: 300 }) }), 35],
          [() => ({ type: 'bytes', bytes: [...r.g(fc.uint8Array, { maxLength: 300 })] }), 30],
          [() => ({ type: 'json', value: r.json(5) }), 35],
        ]),
        headers: headerMutations(r),
        wire: wireMode(r),
      }
    case 'batch': {
      const size = r.pick([0, 1, 2, 5, 100])
      const items = []
      for (let index = 0; index < Math.min(size, 5); index += 1)
        items.push(messageFor(r, r.pick(['modern', 'legacy'])))
      return { kind, items, repeat: size, era: r.pick(['modern', 'legacy']) }
    }
    case 'big':
      return {
        kind,
        size: r.pick([4 * 1024 * 1024 - 200, 4 * 1024 * 1024 + 1, 5 * 1024 * 1024, 9 * 1024 * 1024]),
        declared: r.pick([true, false]),
        valid: r.pick([true, false]),
        era: r.pick(['modern', 'legacy']),
      }
    case 'route':
      return {
        kind,
        method: r.pick(['GET', 'POST', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT', 'FOO']),
        path: r.pick([
          '/',
          '/healthz',
          '/healthz?x=1',
          '/mcp/',
          '/MCP',
          '//mcp',
          '/mcp?x=1',
          '/mcp#x',
          '/%6dcp',
          '/mcp/../mcp',
          '*',
          '/.well-known/oauth-protected-resource',
          `/${r.string(20)}`,
          `/${'a'.repeat(10_000)}`,
        ]),
        headers: headerMutations(r),
      }
    default:
      return {
        kind: 'options',
        requestHeaders: r.weighted([
          [() => 'content-type, mcp-session-id, mcp-param-region', 60],
          [() => r.string(40), 40],
        ]),
        headers: headerMutations(r),
      }
  }
}

function stdioLine(r) {
  return r.weighted([
    [
      () => {
        const era = r.pick(['modern', 'legacy'])
        return {
          type: 'message',
          era,
          message: messageFor(r, era),
          structural: structuralMutation(r),
          bytes: byteMutation(r),
          ending: r.weighted([
            ['\n', 85],
            ['\r\n', 15],
          ]),
        }
      },
      82,
    ],
    [
      () => ({
        type: 'garbage',
        bytes: [...r.g(fc.uint8Array, { maxLength: 200 })].filter((byte) => byte !== 10),
      }),
      8,
    ],
    [
      () => ({ type: 'text', text: r.g(fc.string, { unit: 'binary', maxLength: 200 }).replace(/\n/g, ' ') }),
      5,
    ],
    [() => ({ type: 'blank', text: r.pick(['', ' ', '\r', '\t \t']) }), 3],
    [() => ({ type: 'huge', bytes: r.pick([1_000_000, 6_000_000]), valid: r.chance(50) }), 2],
  ])
}

function stdioCase(r) {
  const count = r.weighted([
    [1, 60],
    [2, 20],
    [3, 12],
    [5, 8],
  ])
  const lines = []
  for (let index = 0; index < count; index += 1) lines.push(stdioLine(r))
  return {
    kind: 'lines',
    lines,
    split: r.chance(10) ? { pieces: r.int(2, 5), delayMs: r.int(0, 20) } : undefined,
  }
}

export const caseArbitrary = fc.gen().map((g) => {
  const r = chooser(g)
  const target = r.weighted([
    ['http', 62],
    ['stateless', 12],
    ['stdio', 26],
  ])
  return target === 'stdio' ? { target, ...stdioCase(r) } : { target, ...httpCase(r, target) }
})

/** The seed of case `index` of a run: the run's seed and the index mixed (32-bit). */
export function caseSeed(runSeed, index) {
  let value = (runSeed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0
  value = Math.imul(value ^ (value >>> 16), 0x85ebca6b) >>> 0
  value = Math.imul(value ^ (value >>> 13), 0xc2b2ae35) >>> 0
  return (value ^ (value >>> 16)) | 0
}

/** Case `index` of the run with seed `runSeed`. */
export function caseFor(runSeed, index) {
  const [value] = fc.sample(caseArbitrary, { seed: caseSeed(runSeed, index), numRuns: 1 })
  return value
}
