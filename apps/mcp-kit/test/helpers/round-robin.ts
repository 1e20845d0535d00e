// A round-robin HTTP proxy for tests of several `serve` instances (no affinity): each request,
// streams included, goes to the next instance; an instance that refuses the connection (it died)
// is skipped, as a load balancer's health check would.

import { createServer, type Server } from 'node:http'

const proxies: Server[] = []

/** Closes every proxy started (for afterEach). */
export async function closeProxies(): Promise<void> {
  for (const proxy of proxies.splice(0)) {
    proxy.closeAllConnections()
    await new Promise((resolve) => proxy.close(resolve))
  }
}

/**
 * Starts a proxy over `targets` (MCP endpoint URLs); resolves to its own endpoint URL. `onForward`
 * hears where each request went, with its body.
 */
export async function roundRobin(
  targets: string[],
  onForward?: (target: string, body: string) => void,
): Promise<string> {
  let next = 0
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
        const target = new URL(targets[next++ % targets.length] as string)
        let answer: Response
        try {
          answer = await fetch(target, {
            method: request.method,
            headers,
            body: body.length > 0 ? Buffer.concat(body) : undefined,
            signal: controller.signal,
          })
        } catch {
          if (controller.signal.aborted) return
          continue // refused: that instance is gone, try the next
        }
        onForward?.(target.href, Buffer.concat(body).toString('utf8'))
        try {
          response.writeHead(answer.status, Object.fromEntries(answer.headers))
          if (answer.body) for await (const chunk of answer.body) response.write(chunk)
        } catch {
          // The instance died mid-answer: the client sees the stream end, as it would behind a balancer.
        }
        response.end()
        return
      }
      response.writeHead(502)
      response.end()
    })
  })
  proxies.push(proxy)
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  const { port } = proxy.address() as { port: number }
  return `http://127.0.0.1:${port}/mcp`
}
