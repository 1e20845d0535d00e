// A local HTTP server for the tests: it records every request as it arrived (method, URL,
// headers, body text) and answers with what the test's handler says (default: 200, the request
// as JSON).

import { createServer, type IncomingMessage } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'

export interface Recorded {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
}

export interface Answer {
  status?: number
  headers?: Record<string, string>
  body?: string | Buffer | object
  /** Never answer (a timeout test). */
  hang?: boolean
}

export interface Recorder {
  url: string
  requests: Recorded[]
  close(): Promise<void>
}

export async function startRecorder(handler: (request: Recorded) => Answer = () => ({})): Promise<Recorder> {
  const requests: Recorded[] = []
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const recorded: Recorded = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      }
      requests.push(recorded)
      const answer = handler(recorded)
      if (answer.hang) return
      let body = answer.body ?? { method: recorded.method, url: recorded.url }
      const headers = { ...answer.headers }
      if (typeof body === 'object' && !Buffer.isBuffer(body)) {
        body = JSON.stringify(body)
        headers['content-type'] ??= 'application/json'
      }
      response.writeHead(answer.status ?? 200, headers)
      response.end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** A document of @readme/oas-examples (published example and real-world API descriptions). */
export function example(path: string): string {
  return createRequire(import.meta.url).resolve(`@readme/oas-examples/${path}`)
}
