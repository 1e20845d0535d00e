// One 2026-07-28 request over plain HTTP (no SDK): the `_meta` envelope and the SEP-2243 headers
// every request carries, the client declaring the tasks extension; the answer as parsed JSON (a
// JSON body, or the response among the events of an SSE body). For tests that count every
// request's outcome, so nothing retries or reconnects behind their back.

const version = '2026-07-28'
const tasksExtension = 'io.modelcontextprotocol/tasks'

export interface ModernAnswer {
  /** HTTP status (0: no HTTP answer at all, e.g. connection refused). */
  status: number
  // biome-ignore lint/suspicious/noExplicitAny: JSON off the wire, which the tests check
  result?: Record<string, any>
  error?: { code: number; message: string }
  /** What went wrong when there is neither result nor error, for failure messages. */
  problem?: string
}

let nextId = 1

export async function modernRequest(
  url: string,
  method: string,
  params: Record<string, unknown>,
  options: { signal?: AbortSignal } = {},
): Promise<ModernAnswer> {
  const id = nextId++
  const name = (params.name ?? params.taskId) as string | undefined
  let response: Response
  try {
    response = await fetch(url, {
      method: 'POST',
      signal: options.signal,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': version,
        'mcp-method': method,
        ...(name === undefined ? {} : { 'mcp-name': name }),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method,
        params: {
          ...params,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': version,
            'io.modelcontextprotocol/clientCapabilities': { extensions: { [tasksExtension]: {} } },
          },
        },
      }),
    })
  } catch (error) {
    return { status: 0, problem: `no answer: ${String((error as Error).cause ?? error)}` }
  }
  const text = await response.text().catch((error: unknown) => `(body cut: ${String(error)})`)
  const messages = (response.headers.get('content-type') ?? '').includes('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
    : [text]
  for (const message of messages) {
    let parsed: { id?: unknown; result?: ModernAnswer['result']; error?: ModernAnswer['error'] }
    try {
      parsed = JSON.parse(message)
    } catch {
      continue
    }
    if (parsed.id === id) return { status: response.status, result: parsed.result, error: parsed.error }
  }
  return { status: response.status, problem: `HTTP ${response.status}: ${text.slice(0, 200)}` }
}

/** What an answer says, in a line, for failure messages. */
export function describeAnswer(answer: ModernAnswer): string {
  if (answer.result !== undefined) return JSON.stringify(answer.result).slice(0, 300)
  if (answer.error !== undefined) return `error ${answer.error.code}: ${answer.error.message}`
  return answer.problem ?? `HTTP ${answer.status}`
}
