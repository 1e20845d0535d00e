// What the sampling tests share: the registry whose tools sample (sampling-registry.mjs) as a
// reference, server-everything's, and a model as a program (--sampling-command) that logs each
// request, calls get_weather when offered tools, reads the tool's result, and otherwise
// summarizes (with a stop sequence in what it prints).

import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { npmServers } from '@mcp-kit/fixtures'
import { binPath } from './helpers.js'

export const samplingRegistry = fileURLToPath(new URL('../fixtures/sampling-registry.mjs', import.meta.url))

/** The sampling registry served by mcp-kit over stdio, with `query` (tool=…, arguments). */
export const ours = (query: string) =>
  `mcp+node://${binPath}?arg=serve&arg=${encodeURIComponent(samplingRegistry)}&arg=--stdio&${query}`

export const everything = (query: string) => `mcp+node://${npmServers.everything}?${query}`

/** Writes the answering program into `directory`: its flags, and the file its requests go to. */
export function answerProgram(directory: string): { flags: string[]; requestLog: string } {
  const requestLog = join(directory, 'requests.ndjson')
  const path = join(directory, 'answer.mjs')
  writeFileSync(
    path,
    `import { appendFileSync } from 'node:fs'
let input = ''
process.stdin.on('data', (chunk) => (input += chunk)).on('end', () => {
  appendFileSync(${JSON.stringify(requestLog)}, input)
  const { params } = JSON.parse(input)
  const last = params.messages.at(-1)
  const result = (Array.isArray(last.content) ? last.content : [last.content]).find((block) => block.type === 'tool_result')
  if (params.tools && !result)
    console.log(JSON.stringify({ content: [{ type: 'tool_use', id: 'c1', name: 'get_weather', input: { city: 'Paris' } }], model: 'answer-bot' }))
  else if (result) console.log('It is ' + JSON.parse(result.content[0].text).celsius + ' degrees.')
  else console.log('The answer is 42. END of the answer')
})
`,
  )
  return { flags: ['--sampling-command', `node ${path}`], requestLog }
}
