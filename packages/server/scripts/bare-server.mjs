// The ceiling of the throughput comparison: node:http answering every POST with a fixed
// JSON-RPC tools/call result (it still reads the body and echoes the request id).
import { createServer } from 'node:http'

const server = createServer((request, response) => {
  const chunks = []
  request.on('data', (chunk) => chunks.push(chunk))
  request.on('end', () => {
    const { id } = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id,
      result: { content: [{ type: 'text', text: 'hello' }] },
    })
    response.writeHead(200, {
      'content-type': 'application/json',
      'mcp-session-id': 'fixed',
      'content-length': Buffer.byteLength(body),
    })
    response.end(body)
  })
})
server.listen(0, '127.0.0.1', () =>
  console.error(`bare ceiling at http://127.0.0.1:${server.address().port}/mcp`),
)
