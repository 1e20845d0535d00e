// A round-robin HTTP proxy in front of several `mcp-kit serve` instances, as a load balancer
// without affinity: each request (streams included) goes to the next instance. An instance that
// refuses the connection (it was killed) is skipped for that request, as balancers do with a dead
// backend; nothing that reached an instance is sent twice. Shared by the scale-out tests.

import { createServer, type Server } from 'node:http'

export interface RoundRobin {
  /** The proxy's MCP endpoint. */
  url: string
  /** The instance URL each request was answered by, in order. */
  served: string[]
}

const proxies: Server[] = []

/** Starts a proxy in front of `targets` (MCP endpoint URLs); closed by closeProxies(). */
export async function startRoundRobin(targets: string[]): Promise<RoundRobin> {
  let next = 0
  const served: string[] = []
  const proxy = createServer((request, response) => {
    const body: Buffer[] = []
    request.on('data', (chunk: Buffer) => body.push(chunk))
    request.on('end', async () => {
      const headers = new Headers()
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === 'string' && name !== 'host' && name !== 'connection') headers.set(name, value)
      }
      const controller = new AbortController()
      response.on('close', () => controller.abort())
      for (let attempt = 0; attempt < targets.length; attempt++) {
        const target = targets[next++ % targets.length] as string
        try {
          const answer = await fetch(new URL(target), {
            method: request.method,
            headers,
            body: body.length > 0 ? Buffer.concat(body) : undefined,
            signal: controller.signal,
          })
          served.push(target)
          response.writeHead(answer.status, Object.fromEntries(answer.headers))
          if (answer.body) for await (const chunk of answer.body) response.write(chunk)
          response.end()
          return
        } catch (error) {
          // Only a refused connection is safe to try elsewhere: the request never arrived.
          if (refused(error) && !response.headersSent) continue
          break
        }
      }
      if (!response.headersSent) response.writeHead(502)
      response.end()
    })
  })
  proxies.push(proxy)
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  const { port } = proxy.address() as { port: number }
  return { url: `http://127.0.0.1:${port}/mcp`, served }
}

/** The proxy's URL only (see startRoundRobin). */
export async function roundRobin(targets: string[]): Promise<string> {
  return (await startRoundRobin(targets)).url
}

/** Closes every proxy started so far (for afterEach). */
export async function closeProxies(): Promise<void> {
  for (const proxy of proxies.splice(0)) {
    proxy.closeAllConnections()
    await new Promise((resolve) => proxy.close(resolve))
  }
}

function refused(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } } | undefined)?.cause
  return cause?.code === 'ECONNREFUSED'
}
