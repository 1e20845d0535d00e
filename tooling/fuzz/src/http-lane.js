// The HTTP side of a fuzz run: one `mcp-kit serve --port 0` (stateful, or `--stateless`), a pool
// of initialized 2025 sessions the cases aim at, and one function per case kind that sends the
// case's bytes over a fresh connection and checks every answer. After each case a valid call
// must still work, and the server must still be running (else it is restarted).

import { legacyVersions, modernVersion } from './cases.js'
import { exchange, isEventStream } from './http-wire.js'
import { damage, legacyHeaders, modernHeaders, serialize, wireChunks } from './materialize.js'
import { checkAnswer, checkMessage, expectedId, leakedStack } from './oracle.js'
import { startHttpServe } from './serve-process.js'

const poolSize = 4
/** The fuzzer's own well-behaved requests (opening, closing sessions) may wait this long on a loaded machine. */
const setupTimeoutMs = 20_000
const modernMeta = {
  'io.modelcontextprotocol/protocolVersion': modernVersion,
  'io.modelcontextprotocol/clientCapabilities': {},
}

/** Only bytes a header may carry on our wire: the case's garbage, minus line breaks. */
function headerSafe(text) {
  return String(text).replace(/[\r\n]/g, ' ')
}

function tryParse(bytes) {
  try {
    return JSON.parse(bytes.toString('utf8'))
  } catch {
    return undefined
  }
}

/** A request that failed because its connection closed or reset before an answer (not a refusal). */
function droppedConnection(error) {
  const code = error?.cause?.code
  return error instanceof TypeError && ['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE'].includes(code)
}

export class HttpLane {
  /**
   * @param {object} options
   * @param {string} options.name        'http' or 'stateless'
   * @param {boolean} options.stateless
   * @param {string} options.module
   * @param {string} [options.bin]
   * @param {number} options.timeoutMs   the hang bound of one exchange
   * @param {string[]} [options.serveArgs]  more `serve` arguments (`--store …`)
   */
  constructor(options) {
    this.options = options
    this.name = options.name
    /** @type {{ id: string, version: string }[]} */
    this.pool = []
    /** Session ids this run deleted (the `deleted` choice aims at them). */
    this.deleted = []
    this.server = undefined
    this.liveCount = 0
    /** Connections reset while a case was still sending (see send). */
    this.resets = 0
    /** HTTP statuses of the cases' answers: how much got through to the protocol, how much was refused. */
    this.statuses = {}
  }

  async start() {
    const args = ['--headers-timeout', '2', '--body-timeout', '2', '--session-idle', '3600']
    if (this.options.stateless) args.push('--stateless')
    args.push(...(this.options.serveArgs ?? []))
    this.server = await startHttpServe({ bin: this.options.bin, module: this.options.module, args })
    this.base = `http://127.0.0.1:${this.server.port}`
    this.pool = []
    if (!this.options.stateless) await this.fillPool()
  }

  async stop() {
    await this.server?.stop()
  }

  get host() {
    return `127.0.0.1:${this.server.port}`
  }

  /** Opens a 2025 session with `fetch` (the well-behaved way) and returns its id. */
  async openSession(version = legacyVersions[0], capabilities = {}) {
    const response = await fetch(`${this.base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: version, capabilities, clientInfo: { name: 'fuzz', version: '1' } },
      }),
      signal: AbortSignal.timeout(setupTimeoutMs),
    })
    await response.text()
    const id = response.headers.get('mcp-session-id')
    if (response.status !== 200 || id === null) throw new Error(`initialize answered ${response.status}`)
    await this.post(
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { 'mcp-session-id': id, 'mcp-protocol-version': version },
      setupTimeoutMs,
    )
    return id
  }

  async deleteSession(id) {
    const response = await fetch(`${this.base}/mcp`, {
      method: 'DELETE',
      headers: { 'mcp-session-id': id },
      signal: AbortSignal.timeout(setupTimeoutMs),
    })
    await response.text()
    this.remember(id)
    return response.status
  }

  remember(id) {
    this.deleted.push(id)
    if (this.deleted.length > 10) this.deleted.shift()
  }

  async fillPool() {
    for (let index = 0; index < poolSize; index += 1) {
      if (this.pool[index] !== undefined) continue
      const version = legacyVersions[index % legacyVersions.length]
      this.pool[index] = { id: await this.openSession(version), version }
    }
  }

  /** A POST with fetch; resolves to status and text. */
  async post(message, headers = {}, timeoutMs = this.options.timeoutMs) {
    const response = await fetch(`${this.base}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify(message),
      signal: AbortSignal.timeout(timeoutMs),
    })
    return { status: response.status, text: await response.text(), headers: response.headers }
  }

  /**
   * Runs one case; returns its findings and what was sent (for the failure file).
   * @returns {Promise<{ findings: import('./oracle.js').Finding[], sent: string[] }>}
   */
  async run(recipe) {
    const context = { findings: [], sent: [] }
    switch (recipe.kind) {
      case 'modern':
        await this.sendMessageCase(context, recipe, 'modern')
        break
      case 'legacy':
        await this.sendMessageCase(context, recipe, 'legacy', this.sessionFor(recipe.session))
        break
      case 'session':
        await this.sessionCase(context, recipe)
        break
      case 'get':
        await this.getCase(context, recipe)
        break
      case 'delete':
        await this.deleteCase(context, recipe)
        break
      case 'raw':
        await this.rawCase(context, recipe)
        break
      case 'batch':
        await this.batchCase(context, recipe)
        break
      case 'big':
        await this.bigCase(context, recipe)
        break
      case 'route':
        await this.routeCase(context, recipe)
        break
      default:
        await this.optionsCase(context, recipe)
    }
    return context
  }

  /** The session a case names: a live one of the pool, none, a made-up or a deleted id. */
  sessionFor(choice) {
    switch (choice?.type) {
      case 'pool': {
        const session = this.pool[choice.index]
        return session === undefined ? undefined : { ...session }
      }
      case 'bogus':
        return { id: headerSafe(choice.id), version: legacyVersions[0] }
      case 'deleted':
        return {
          id: this.deleted.at(-1) ?? '00000000-0000-4000-8000-000000000000',
          version: legacyVersions[0],
        }
      default:
        return undefined
    }
  }

  /**
   * Sends raw chunks and checks the outcome. `requestText` keeps echoes from counting as leaks.
   * @returns {Promise<import('./http-wire.js').Outcome>}
   */
  async send(context, { chunks, halfClose, method }, check = {}) {
    context.sent.push(
      Buffer.concat(chunks.map((chunk) => chunk.bytes))
        .subarray(0, 4096)
        .toString('latin1'),
    )
    const delays = chunks.reduce((sum, chunk) => sum + (chunk.delayMs ?? 0), 0)
    const outcome = await exchange({
      port: this.server.port,
      chunks,
      halfClose,
      method,
      timeoutMs: this.options.timeoutMs + delays,
      streamMs: check.streamMs,
      onEvent: check.onEvent,
    })
    if (outcome.timedOut) {
      context.findings.push({
        category: 'hang',
        detail: `no answer and no close within ${this.options.timeoutMs} ms${outcome.answers.length > 0 ? ` (an answer began: HTTP ${outcome.answers[0].status})` : ''}`,
      })
    }
    // node:http hands a request with a Transfer-Encoding other than `chunked` to the server,
    // then fails its parse and closes the connection under the answer: the request was not HTTP.
    const head = chunks[0]?.bytes.toString('latin1').split('\r\n\r\n')[0] ?? ''
    const badFraming = /^transfer-encoding:(?![ \t]*chunked[ \t]*$)/im.test(head)
    for (const answer of outcome.answers) {
      const code = /"error":\{"code":(-?\d+)/.exec(answer.body.subarray(0, 300).toString('latin1'))?.[1]
      const key = code === undefined ? String(answer.status) : `${answer.status} ${code}`
      this.statuses[key] = (this.statuses[key] ?? 0) + 1
      const findings = checkAnswer(answer, {
        requestText: check.requestText,
        requestId: check.requestId,
        method,
        healthz: check.healthz,
      })
      context.findings.push(
        ...findings.filter((finding) => !(badFraming && finding.category === 'truncated')),
      )
    }
    if (outcome.answers.length === 0 && outcome.resetWhileSending) {
      // The server refused on the headers (or a parse error) and closed with our upload unread:
      // its TCP reset can erase the answer before we read it (RFC 9112 §9.6). Counted, not a finding.
      this.resets += 1
    } else if (
      !outcome.timedOut &&
      outcome.answers.length === 0 &&
      !halfClose &&
      !badFraming &&
      check.mayClose !== true
    ) {
      context.findings.push({
        category: 'truncated',
        detail: `the server closed the connection without an answer${outcome.socketError ? ` (${outcome.socketError})` : ''}`,
      })
    }
    return outcome
  }

  /** A modern (stateless) or legacy (in a session) message, damaged as the case says. */
  async sendMessageCase(context, recipe, era, session) {
    const body = damage(serialize(recipe.message, recipe.structural), recipe.bytes)
    const parsed = tryParse(body)
    let headers
    if (era === 'modern') headers = modernHeaders(recipe.message, recipe.accept)
    else {
      const version =
        recipe.versionHeader === 'session'
          ? session?.version
          : recipe.versionHeader === 'other'
            ? modernVersion
            : undefined
      headers = legacyHeaders({ accept: recipe.accept, sessionId: session?.id, version })
    }
    const wire = wireChunks({
      method: 'POST',
      path: '/mcp',
      headers: [['host', this.host], ['content-type', 'application/json'], ...headers],
      mutations: recipe.headers.map((mutation) => ({
        ...mutation,
        name: headerSafe(mutation.name),
        value: headerSafe(mutation.value ?? ''),
      })),
      body,
      wire: recipe.wire,
    })
    const requestId = expectedId(body)
    const listening = parsed?.method === 'subscriptions/listen'
    await this.exchangeInSession(context, wire, {
      requestText: body.toString('utf8'),
      requestId,
      streamMs: listening ? 150 : undefined,
      sessionId: session?.id,
      version: session?.version,
      answers: recipe.answers,
      asksClient: parsed?.method === 'tools/call' && ['ask', 'roots'].includes(parsed?.params?.name),
    })
  }

  /**
   * Sends a request that may belong to a 2025 session: questions the server asks on the
   * answer's stream get an answer, and a request not answered within a second is cancelled, as
   * a client's timeout would. Only a call that asks the client may need that.
   */
  async exchangeInSession(context, wire, check) {
    const pending = []
    const onEvent =
      check.sessionId === undefined
        ? undefined
        : (data) => {
            const message = tryParse(Buffer.from(data))
            if (message === undefined || typeof message.method !== 'string' || message.id === undefined)
              return
            pending.push(this.answerQuestion(context, message, check))
          }
    let cancelled = false
    const timer =
      check.sessionId !== undefined && check.requestId !== undefined
        ? setTimeout(() => {
            cancelled = true
            pending.push(
              this.post(
                {
                  jsonrpc: '2.0',
                  method: 'notifications/cancelled',
                  params: { requestId: check.requestId, reason: 'fuzz timeout' },
                },
                {
                  'mcp-session-id': check.sessionId,
                  ...(check.version ? { 'mcp-protocol-version': check.version } : {}),
                },
              ).catch(() => {}),
            )
          }, 1000)
        : undefined
    const outcome = await this.send(context, wire, { ...check, onEvent })
    clearTimeout(timer)
    await Promise.all(pending)
    // Only an answer the server was working on counts: a body that never arrived in full is
    // answered 408 when its deadline passes, cancelled or not.
    if (
      cancelled &&
      !check.asksClient &&
      !outcome.timedOut &&
      [200, 202].includes(outcome.answers[0]?.status)
    ) {
      context.findings.push({
        category: 'hang',
        detail: 'a request that asks nothing of the client was answered only after it was cancelled',
      })
    }
    return outcome
  }

  async answerQuestion(context, question, check) {
    const answer =
      check.answers === 'error'
        ? { jsonrpc: '2.0', id: question.id, error: { code: -1, message: 'no' } }
        : check.answers === 'invalid'
          ? { jsonrpc: '2.0', id: question.id, result: { nonsense: true } }
          : {
              jsonrpc: '2.0',
              id: question.id,
              result:
                question.method === 'roots/list'
                  ? { roots: [] }
                  : check.answers === 'accept'
                    ? { action: 'accept', content: { name: 'fuzz' } }
                    : { action: 'decline' },
            }
    try {
      const response = await this.post(answer, {
        'mcp-session-id': check.sessionId,
        ...(check.version ? { 'mcp-protocol-version': check.version } : {}),
      })
      if (response.status >= 500)
        context.findings.push({ category: '5xx', detail: `HTTP ${response.status} to an answer` })
    } catch (error) {
      context.findings.push({
        category: 'hang',
        detail: `the answer to a question was not taken: ${error.message}`,
      })
    }
  }

  /** initialize (perhaps damaged), then requests in the new session, then DELETE. */
  async sessionCase(context, recipe) {
    const body = damage(serialize(recipe.initialize, recipe.initializeMutation))
    const wire = wireChunks({
      method: 'POST',
      path: '/mcp',
      headers: [
        ['host', this.host],
        ['content-type', 'application/json'],
        ...legacyHeaders({ accept: recipe.accept }),
      ],
      mutations: recipe.headers.map((mutation) => ({
        ...mutation,
        name: headerSafe(mutation.name),
        value: headerSafe(mutation.value ?? ''),
      })),
      body,
    })
    const outcome = await this.send(context, wire, {
      requestText: body.toString('utf8'),
      requestId: expectedId(body),
    })
    const answer = outcome.answers[0]
    const sessionId = answer?.status === 200 ? answer.headers.get('mcp-session-id')?.[0] : undefined
    if (sessionId === undefined) return
    let version = legacyVersions[0]
    const text = answer.body.toString('utf8')
    const result = isEventStream(answer) ? undefined : tryParse(Buffer.from(text))?.result
    if (typeof result?.protocolVersion === 'string') version = result.protocolVersion
    const session = { id: sessionId, version }
    const initialized = await this.post(
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { 'mcp-session-id': sessionId, 'mcp-protocol-version': version },
    )
    if (initialized.status !== 202)
      context.findings.push({
        category: 'malformed',
        detail: `notifications/initialized answered ${initialized.status}`,
      })
    for (const followUp of recipe.followUps) {
      await this.sendMessageCase(
        context,
        { ...followUp, versionHeader: 'session', answers: recipe.answers },
        'legacy',
        session,
      )
    }
    if (!recipe.deleteAfter) return
    const status = await this.deleteSession(sessionId)
    if (status !== 200)
      context.findings.push({ category: 'malformed', detail: `DELETE of a live session answered ${status}` })
  }

  async getCase(context, recipe) {
    let session = this.sessionFor(recipe.session)
    let fresh
    if (recipe.session.type === 'fresh' && !this.options.stateless) {
      fresh = await this.openSession()
      session = { id: fresh, version: legacyVersions[0] }
    }
    const accept = {
      sse: 'text/event-stream',
      both: 'application/json, text/event-stream',
      json: 'application/json',
      other: 'text/html',
    }[recipe.accept]
    const headers = [['host', this.host]]
    if (accept !== undefined) headers.push(['accept', accept])
    if (session !== undefined) headers.push(['mcp-session-id', session.id])
    if (recipe.versionHeader === 'session' && session !== undefined)
      headers.push(['mcp-protocol-version', session.version])
    if (recipe.versionHeader === 'other') headers.push(['mcp-protocol-version', modernVersion])
    if (recipe.lastEventId !== undefined) headers.push(['last-event-id', headerSafe(recipe.lastEventId)])
    const wire = wireChunks({
      method: 'GET',
      path: '/mcp',
      headers,
      mutations: recipe.headers.map((mutation) => ({
        ...mutation,
        name: headerSafe(mutation.name),
        value: headerSafe(mutation.value ?? ''),
      })),
      body: undefined,
    })
    await this.send(context, wire, { streamMs: recipe.streamMs })
    if (fresh !== undefined) await this.deleteSession(fresh)
  }

  async deleteCase(context, recipe) {
    let session = this.sessionFor(recipe.session)
    if (recipe.session.type === 'fresh' && !this.options.stateless) {
      session = { id: await this.openSession(), version: legacyVersions[0] }
    }
    const headers = [['host', this.host]]
    if (session !== undefined) headers.push(['mcp-session-id', session.id])
    const wire = wireChunks({
      method: 'DELETE',
      path: '/mcp',
      headers,
      mutations: recipe.headers.map((mutation) => ({
        ...mutation,
        name: headerSafe(mutation.name),
        value: headerSafe(mutation.value ?? ''),
      })),
      body: undefined,
    })
    const outcome = await this.send(context, wire)
    if (session !== undefined && outcome.answers[0]?.status === 200) {
      this.remember(session.id)
      if (recipe.session.type === 'pool') {
        this.pool[recipe.session.index] = undefined
        await this.fillPool()
      }
    }
  }

  async rawCase(context, recipe) {
    let body
    if (recipe.body.type === 'text') body = Buffer.from(recipe.body.text, 'utf8')
    else if (recipe.body.type === 'bytes') body = Buffer.from(recipe.body.bytes)
    else body = Buffer.from(JSON.stringify(recipe.body.value) ?? 'null')
    const session = this.pool[0]
    const headers = [
      ['host', this.host],
      ['content-type', 'application/json'],
      ['accept', 'application/json, text/event-stream'],
    ]
    if (session !== undefined && recipe.method === 'POST') headers.push(['mcp-session-id', session.id])
    const wire = wireChunks({
      method: recipe.method,
      path: '/mcp',
      headers,
      mutations: recipe.headers.map((mutation) => ({
        ...mutation,
        name: headerSafe(mutation.name),
        value: headerSafe(mutation.value ?? ''),
      })),
      body,
      wire: recipe.wire,
    })
    const parsed = tryParse(body)
    await this.send(context, wire, {
      requestText: body.toString('utf8'),
      requestId: expectedId(body),
      // GET without a session id opens nothing; with one it would stream: hold it briefly.
      streamMs: recipe.method === 'GET' || parsed?.method === 'subscriptions/listen' ? 150 : undefined,
    })
  }

  async batchCase(context, recipe) {
    const items = recipe.items.map((item) => serialize(item))
    const all = []
    for (let index = 0; index < recipe.repeat; index += 1)
      all.push(items[index % Math.max(1, items.length)] ?? '{}')
    const body = Buffer.from(`[${all.join(',')}]`)
    const session = this.pool[0]
    const headers =
      recipe.era === 'modern'
        ? modernHeaders(recipe.items[0], 'both')
        : legacyHeaders({ accept: 'both', sessionId: session?.id, version: session?.version })
    const wire = wireChunks({
      method: 'POST',
      path: '/mcp',
      headers: [['host', this.host], ['content-type', 'application/json'], ...headers],
      body,
    })
    await this.send(context, wire, { requestText: body.toString('utf8') })
  }

  async bigCase(context, recipe) {
    let body
    if (recipe.valid) {
      const message = {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'echo',
          arguments: { message: '' },
          ...(recipe.era === 'modern' ? { _meta: modernMeta } : {}),
        },
      }
      const skeleton = JSON.stringify(message)
      body = Buffer.from(
        skeleton.replace(
          '"message":""',
          `"message":"${'a'.repeat(Math.max(0, recipe.size - skeleton.length))}"`,
        ),
      )
    } else body = Buffer.alloc(recipe.size, 0x61)
    const session = this.pool[0]
    const headers =
      recipe.era === 'modern'
        ? modernHeaders({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo' } }, 'both')
        : legacyHeaders({ accept: 'both', sessionId: session?.id, version: session?.version })
    const wire = wireChunks({
      method: 'POST',
      path: '/mcp',
      headers: [['host', this.host], ['content-type', 'application/json'], ...headers],
      body,
      wire: recipe.declared ? { type: 'normal' } : { type: 'chunked', pieces: 64 },
    })
    // A refused upload is answered before it is read in full, and the connection closed.
    await this.send(context, wire, {
      requestText: body.subarray(0, 200).toString('utf8'),
      requestId: recipe.valid ? 1 : undefined,
      mayClose: true,
    })
  }

  async routeCase(context, recipe) {
    const body =
      recipe.method === 'POST' || recipe.method === 'PUT'
        ? Buffer.from(
            JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: modernMeta } }),
          )
        : undefined
    const headers = [
      ['host', this.host],
      ['content-type', 'application/json'],
      ['accept', 'application/json, text/event-stream'],
    ]
    if (body !== undefined)
      headers.push(...modernHeaders({ jsonrpc: '2.0', method: 'tools/list' }, 'both').slice(1))
    const wire = wireChunks({
      method: recipe.method,
      path: recipe.path,
      headers,
      mutations: recipe.headers.map((mutation) => ({
        ...mutation,
        name: headerSafe(mutation.name),
        value: headerSafe(mutation.value ?? ''),
      })),
      body,
    })
    await this.send(context, wire, {
      requestId: body === undefined ? undefined : 1,
      healthz: recipe.path.startsWith('/healthz'),
      streamMs: 150,
      // node:http closes a CONNECT it has no tunnel for; that is its whole answer.
      mayClose: recipe.method === 'CONNECT',
    })
  }

  async optionsCase(context, recipe) {
    const headers = [
      ['host', this.host],
      ['origin', `http://localhost:${this.server.port}`],
      ['access-control-request-method', 'POST'],
      ['access-control-request-headers', headerSafe(recipe.requestHeaders)],
    ]
    const wire = wireChunks({
      method: 'OPTIONS',
      path: '/mcp',
      headers,
      mutations: recipe.headers.map((mutation) => ({
        ...mutation,
        name: headerSafe(mutation.name),
        value: headerSafe(mutation.value ?? ''),
      })),
      body: undefined,
    })
    await this.send(context, wire)
  }

  /**
   * After each case: a valid 2026 call must work, and every tenth case a call in a pool session
   * (re-opened when it is gone: the pool is the fuzzer's, not the case's).
   * @returns {Promise<import('./oracle.js').Finding[]>}
   */
  async live() {
    this.liveCount += 1
    const findings = []
    const text = `alive ${this.liveCount}`
    const call = () =>
      this.post(
        {
          jsonrpc: '2.0',
          id: this.liveCount,
          method: 'tools/call',
          params: { name: 'echo', arguments: { message: text }, _meta: modernMeta },
        },
        { 'mcp-protocol-version': modernVersion, 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
      )
    try {
      // fetch reuses the pool's idle keep-alive connection; on a starved machine that connection
      // can meet the server's idle close (5 s) as the request goes out. One more try on a new
      // connection tells that race from a dead server.
      const response = await call().catch((error) => {
        if (!droppedConnection(error)) throw error
        return call()
      })
      const answer = tryParse(Buffer.from(response.text))
      if (response.status !== 200 || answer?.result?.content?.[0]?.text !== text) {
        findings.push({
          category: 'dead',
          detail: `a valid tools/call answered ${response.status}: ${response.text.slice(0, 200)}`,
        })
      }
    } catch (error) {
      findings.push({ category: 'dead', detail: `a valid tools/call failed: ${error.message}` })
    }
    if (!this.options.stateless && this.liveCount % 10 === 0) {
      const index = (this.liveCount / 10) % poolSize
      const session = this.pool[index]
      try {
        const response = await this.post(
          { jsonrpc: '2.0', id: this.liveCount, method: 'tools/list' },
          { 'mcp-session-id': session.id, 'mcp-protocol-version': session.version },
        )
        if (response.status === 404) {
          this.pool[index] = undefined
          await this.fillPool()
        } else if (response.status !== 200 || !response.text.includes('"tools"')) {
          findings.push({ category: 'dead', detail: `tools/list in a session answered ${response.status}` })
        }
        const message = response.headers.get('content-type')?.startsWith('application/json')
          ? tryParse(Buffer.from(response.text))
          : undefined
        if (message !== undefined) findings.push(...checkMessage(message))
        const stack = leakedStack(response.text)
        if (stack !== undefined) findings.push({ category: 'stack', detail: stack })
      } catch (error) {
        findings.push({ category: 'dead', detail: `tools/list in a session failed: ${error.message}` })
      }
    }
    return findings
  }
}
