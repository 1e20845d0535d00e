// The stdio side of a fuzz run: one `mcp-kit serve --stdio` with an initialized 2025 session,
// fed each case's lines (both eras, damaged, garbage, blank, huge). What must come back follows
// JSON-RPC 2.0 and the MCP stdio transport: one answer per request (by id), an error with a null
// id for each line that is not JSON or not a message (a malformed notification gets nothing), and
// nothing but JSON-RPC messages on stdout. Then a ping must still be answered.

import { damage, serialize } from './materialize.js'
import { checkMessage, leakedStack } from './oracle.js'
import { startStdioServe } from './serve-process.js'

function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isId(value) {
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value))
}

const idKey = (id) => `${typeof id}:${String(id)}`
/** How long a starting server may take to answer initialize (a loaded machine starts node slowly). */
const startTimeoutMs = 20_000

/**
 * What the server owes for one line, read as the server reads it (UTF-8, one trailing CR
 * dropped, blank lines skipped).
 * @returns {{ answer: 'id', id: string | number, method: string, modern: boolean, cancels?: unknown } | { answer: 'null' } | { answer: 'none', cancels?: unknown }}
 */
export function owedFor(line) {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line
  if (text.trim() === '') return { answer: 'none' }
  let value
  try {
    value = JSON.parse(text)
  } catch {
    return { answer: 'null' }
  }
  if (!isObject(value)) return { answer: 'null' }
  const envelopeOk =
    value.jsonrpc === '2.0' &&
    ('method' in value
      ? typeof value.method === 'string' &&
        (!('id' in value) || isId(value.id)) &&
        (!('params' in value) || value.params === undefined || isObject(value.params))
      : isId(value.id) &&
        'result' in value !== 'error' in value &&
        (!('result' in value) || isObject(value.result)) &&
        (!('error' in value) || isObject(value.error)))
  if (!envelopeOk) {
    if (!('method' in value)) return { answer: 'null' }
    return isId(value.id)
      ? { answer: 'id', id: value.id, method: 'invalid', modern: false }
      : { answer: 'none' }
  }
  if (!('method' in value)) return { answer: 'none' }
  if (!('id' in value)) {
    const cancels =
      value.method === 'notifications/cancelled' && isObject(value.params)
        ? value.params.requestId
        : undefined
    return { answer: 'none', cancels }
  }
  const meta = isObject(value.params) && isObject(value.params._meta) ? value.params._meta : undefined
  const modern = meta !== undefined && 'io.modelcontextprotocol/protocolVersion' in meta
  return { answer: 'id', id: value.id, method: value.method, modern }
}

/** The bytes of one line recipe, without its line ending. */
function lineBytes(line) {
  switch (line.type) {
    case 'message':
      return damage(serialize(line.message, line.structural), line.bytes)
    case 'garbage':
      return Buffer.from(line.bytes)
    case 'text':
      return Buffer.from(line.text, 'utf8')
    case 'blank':
      return Buffer.from(line.text, 'utf8')
    default: {
      if (!line.valid) return Buffer.alloc(line.bytes, 0x7b)
      const skeleton = JSON.stringify({
        jsonrpc: '2.0',
        id: 'huge',
        method: 'tools/call',
        params: { name: 'echo', arguments: { message: '' } },
      })
      return Buffer.from(
        skeleton.replace(
          '"message":""',
          `"message":"${'a'.repeat(Math.max(0, line.bytes - skeleton.length))}"`,
        ),
      )
    }
  }
}

export class StdioLane {
  /** @param {{ module: string, bin?: string, timeoutMs: number }} options */
  constructor(options) {
    this.options = options
    this.name = 'stdio'
    this.liveCount = 0
    this.stray = []
    this.waiting = undefined
    /** Ids the last case may still see answered (a refused subscription, a cancelled request). */
    this.late = new Map()
    /** Results and error codes of the answers: how much got through, how much was refused. */
    this.outcomes = {}
  }

  async start() {
    this.stray = []
    this.server = startStdioServe({
      bin: this.options.bin,
      module: this.options.module,
      onLine: (line) => this.onLine(line),
    })
    const answer = await this.request(
      {
        jsonrpc: '2.0',
        id: 'setup-initialize',
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'fuzz', version: '1' },
        },
      },
      startTimeoutMs,
    )
    if (answer === undefined || !('result' in answer))
      throw new Error('the stdio server did not answer initialize')
    await this.server.write(Buffer.from('{"jsonrpc":"2.0","method":"notifications/initialized"}\n'))
  }

  async stop() {
    await this.server?.stop()
  }

  onLine(line) {
    if (line.trim() === '') return
    let message
    try {
      message = JSON.parse(line)
    } catch {
      this.stray.push({ category: 'malformed', detail: `stdout line is not JSON: ${line.slice(0, 80)}` })
      return
    }
    const stack = leakedStack(line, this.waiting?.requestText)
    if (stack !== undefined) this.stray.push({ category: 'stack', detail: stack })
    this.stray.push(...checkMessage(message))
    if (!isObject(message) || 'method' in message) return
    const outcome = 'result' in message ? 'result' : `error ${message.error?.code}`
    this.outcomes[outcome] = (this.outcomes[outcome] ?? 0) + 1
    const waiting = this.waiting
    if (waiting === undefined) {
      if (message.id !== null && this.takeLate(idKey(message.id))) return
      this.stray.push({
        category: 'malformed',
        detail: `an answer nobody waits for: id ${JSON.stringify(message.id)}`,
      })
      return
    }
    if (message.id === null) {
      waiting.nulls -= 1
      if (waiting.nulls < 0)
        this.stray.push({
          category: 'malformed',
          detail: 'an error answer with a null id that no line called for',
        })
    } else {
      const key = idKey(message.id)
      const owed = waiting.ids.get(key)
      if ((owed === undefined || owed.count === 0) && this.takeLate(key)) {
        // an answer the last case allowed for but did not wait for
      } else if (owed === undefined || owed.count === 0) {
        this.stray.push({
          category: 'malformed',
          detail: `an answer to id ${JSON.stringify(message.id)}, which no request of this case had`,
        })
      } else {
        owed.count -= 1
        owed.got += 1
      }
    }
    waiting.onAnswer?.(message)
    waiting.check()
  }

  /** True (and one fewer owed) when the last case may still see an answer to this id. */
  takeLate(key) {
    const count = this.late.get(key) ?? 0
    if (count === 0) return false
    if (count === 1) this.late.delete(key)
    else this.late.set(key, count - 1)
    return true
  }

  /** Sends one message and waits for its answer (setup and liveness), or undefined on timeout. */
  request(message, timeoutMs = this.options.timeoutMs) {
    return new Promise((resolve) => {
      const key = idKey(message.id)
      const ids = new Map([[key, { count: 1, got: 0, optional: false, id: message.id }]])
      const timer = setTimeout(() => done(undefined), timeoutMs)
      const done = (value) => {
        clearTimeout(timer)
        this.waiting = undefined
        resolve(value)
      }
      this.waiting = {
        ids,
        nulls: 0,
        requestText: '',
        check: () => {},
        onAnswer: (answer) => {
          if (answer.id === message.id) done(answer)
        },
      }
      void this.server.write(Buffer.from(`${JSON.stringify(message)}\n`))
    })
  }

  /** @returns {Promise<{ findings: import('./oracle.js').Finding[], sent: string[] }>} */
  async run(recipe) {
    const findings = []
    const parts = recipe.lines.map((line) =>
      Buffer.concat([lineBytes(line), Buffer.from(line.type === 'message' ? line.ending : '\n')]),
    )
    const bytes = Buffer.concat(parts)
    const sent = [bytes.subarray(0, 4096).toString('latin1')]
    // What the server owes, line by line, as it will split and decode them.
    const ids = new Map()
    let nulls = 0
    const cancelled = []
    const listens = []
    for (const line of bytes.toString('utf8').split('\n').slice(0, -1)) {
      const owed = owedFor(line)
      if (owed.answer === 'null') nulls += 1
      else if (owed.answer === 'id') {
        const key = idKey(owed.id)
        const entry = ids.get(key) ?? { count: 0, got: 0, optional: false, id: owed.id }
        entry.count += 1
        // Two requests with one id: the second may be refused, or (2026-07-28) replace the first.
        if (entry.count > 1) entry.optional = true
        // A subscription is answered only when refused; else it streams until cancelled.
        if (owed.modern && owed.method === 'subscriptions/listen') {
          entry.optional = true
          listens.push(owed.id)
        }
        ids.set(key, entry)
      } else if (owed.cancels !== undefined && isId(owed.cancels)) cancelled.push(idKey(owed.cancels))
    }
    for (const key of cancelled) {
      const entry = ids.get(key)
      if (entry !== undefined) entry.optional = true
    }
    const requestText = bytes.toString('utf8')
    const settled = new Promise((resolve) => {
      const check = () => {
        const open = [...ids.values()].some((entry) => !entry.optional && entry.got === 0)
        if (!open && this.waiting.nulls <= 0) resolve(true)
      }
      this.waiting = { ids, nulls, requestText, check }
    })
    const delays = recipe.split ? recipe.split.delayMs * recipe.split.pieces : 0
    const timer = new Promise((resolve) => setTimeout(() => resolve(false), this.options.timeoutMs + delays))
    if (recipe.split) {
      const size = Math.ceil(bytes.length / recipe.split.pieces)
      for (let start = 0; start < bytes.length; start += size) {
        await this.server.write(bytes.subarray(start, start + size))
        if (recipe.split.delayMs > 0)
          await new Promise((resolve) => setTimeout(resolve, recipe.split.delayMs))
      }
    } else await this.server.write(bytes)
    this.waiting.check()
    const answered = await Promise.race([settled, timer])
    if (!answered) {
      const missing = [...ids.values()]
        .filter((entry) => !entry.optional && entry.got === 0)
        .map((entry) => JSON.stringify(entry.id))
      const nullsLeft = this.waiting.nulls
      findings.push({
        category: 'hang',
        detail: `no answer within ${this.options.timeoutMs} ms${missing.length ? ` for id ${missing.slice(0, 5).join(', ')}` : ''}${nullsLeft > 0 ? ` (${nullsLeft} error answers with a null id missing)` : ''}`,
      })
    }
    this.waiting = undefined
    this.late = new Map(
      [...ids]
        .filter(([, entry]) => entry.optional && entry.count > 0)
        .map(([key, entry]) => [key, entry.count]),
    )
    // Subscriptions run until cancelled: end them so the next case starts clean.
    for (const id of listens) {
      await this.server.write(
        Buffer.from(
          `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } })}\n`,
        ),
      )
    }
    findings.push(...this.stray.splice(0))
    return { findings, sent }
  }

  async live() {
    this.liveCount += 1
    const findings = []
    const answer = await this.request({ jsonrpc: '2.0', id: `live-${this.liveCount}`, method: 'ping' })
    if (answer === undefined || !('result' in answer)) {
      findings.push({ category: 'dead', detail: `ping was not answered within ${this.options.timeoutMs} ms` })
    }
    findings.push(...this.stray.splice(0))
    return findings
  }
}
