// A stand-in for a REST API in the OpenAPI rows: every request is answered 200 with the same JSON
// body (read from --body FILE), at once or after --delay-ms (an API's own time, as a real one has),
// so a call's cost is mcp-kit's and the network's. `node json-api.js --body FILE [--delay-ms N]
// [--port N]` prints its URL.

import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'

const argument = (name) => {
  const index = process.argv.indexOf(`--${name}`)
  return index === -1 ? undefined : process.argv[index + 1]
}
const body = readFileSync(argument('body') ?? '', 'utf8')
JSON.parse(body) // a body that is not JSON is the bench's mistake: fail at once
const delayMs = Number(argument('delay-ms') ?? 0)
const server = createServer((request, response) => {
  request.resume()
  request.on('end', () => {
    const answer = () => {
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      })
      response.end(body)
    }
    if (delayMs > 0) setTimeout(answer, delayMs)
    else answer()
  })
})
server.listen(Number(argument('port') ?? 0), '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${server.address().port}\n`)
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
