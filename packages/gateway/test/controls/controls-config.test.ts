// The controls' parts on their own: the token bucket's window on a clock the test moves, the
// controls file checked at load with errors pointing at the line, and redaction.

import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { redact } from '../../src/audit/redact.js'
import { ConfigError, readControlsFile, readGatewayConfig } from '../../src/index.js'
import { createLimiter, memoryBuckets } from '../../src/limits/limiter.js'
import { compilePolicy } from '../../src/policy/policy.js'
import { temporaryDir } from '../helpers/gateways.js'

test('the 11th call in a window of 10 per second is refused; a second later there is room again', async () => {
  let now = 1_000_000
  const limiter = createLimiter(
    [{ kind: 'rate', rate: 10, perSeconds: 1, burst: 10, by: 'principal' }],
    undefined,
    memoryBuckets(() => now),
  )
  const call = { upstream: 'one', name: 'one__add', authInfo: undefined }
  const answers = []
  for (let index = 0; index < 11; index++) {
    answers.push(await limiter.admit(call))
    now += 5 // eleven calls within 55 ms
  }
  expect(answers.slice(0, 10)).toEqual(Array(10).fill(undefined))
  expect(answers[10]).toMatchObject({ limit: 0, description: '10 calls per second for each principal' })
  expect(answers[10]?.retryAfterMs).toBeGreaterThan(0)
  expect(answers[10]?.retryAfterMs).toBeLessThanOrEqual(100)
  now += 1000
  expect(await limiter.admit(call)).toBeUndefined()
})

test('limits apply to the calls they name, per the key they count by', async () => {
  const limiter = createLimiter(
    [{ kind: 'rate', rate: 1, perSeconds: 60, burst: 1, by: 'tool', tools: ['one__add'] }],
    undefined,
    memoryBuckets(() => 0),
  )
  const anyone = { upstream: 'one', name: 'one__add', authInfo: undefined }
  expect(await limiter.admit(anyone)).toBeUndefined()
  expect(
    await limiter.admit({ ...anyone, authInfo: { token: 't', clientId: 'c', scopes: [] } }),
  ).toBeDefined()
  expect(limiter.admit({ ...anyone, name: 'one__echo' })).toBeUndefined()
})

test('deny rules by annotation use the MCP defaults for what a tool does not state', () => {
  const policy = compilePolicy({
    default: 'allow',
    rules: [{ effect: 'deny', what: { annotations: { destructiveHint: true } } }],
  })
  const tool = (annotations?: Record<string, unknown>) => ({
    kind: 'tool' as const,
    upstream: 'u',
    name: 'u__t',
    annotations,
  })
  expect(policy.decide(tool(), undefined, {}).allowed).toBe(false)
  expect(policy.decide(tool({ destructiveHint: false }), undefined, {}).allowed).toBe(true)
  expect(policy.decide({ kind: 'prompt', upstream: 'u', name: 'u__p' }, undefined, {}).allowed).toBe(true)
})

function written(text: string): string {
  const path = join(temporaryDir(), 'controls.jsonc')
  writeFileSync(path, text)
  return path
}

test('a controls file with a mistake is refused at load, pointing at the line and column', () => {
  const path = written(`{
  // who may call what
  "policy": {
    "rules": [
      { "deny": { "tools": ["a__*"] } },
      { "deny": { "tools": ["b__*"] }, "for": { "scopes": "admin", "group": ["x"] } }
    ]
  }
}
`)
  expect(() => readControlsFile(path)).toThrow(ConfigError)
  expect(() => readControlsFile(path)).toThrow(
    `${path}:6:68: policy.rules[1].for.group is not a known field (scopes, sub, clientId, token, claims, anonymous)`,
  )
  expect(() => readControlsFile(written('{ "limits": [ { "rate": -1 } ] }'))).toThrow(
    /:1:17: limits\[0\]\.rate must be a number > 0/,
  )
  expect(() =>
    readControlsFile(written('{ "policy": { "rules": [ { "allow": {}, "deny": {} } ] } }')),
  ).toThrow(/policy\.rules\[0\] needs exactly one of allow or deny/)
  expect(() => readControlsFile(written('{ "tokens": { "ci": "short" } }'))).toThrow(
    /tokens\.ci\.token must be at least 16/,
  )
  expect(() =>
    readControlsFile(
      written(
        '{ "policy": { "rules": [ { "allow": {}, "arguments": { "a": { "equals": "$nobody" } } } ] } }',
      ),
    ),
  ).toThrow(/\$sub, \$token, \$clientId or \$claims\.NAME/)
  expect(() => readControlsFile(written('{ "policy": '))).toThrow(/:1:\d+: not valid JSON/)
})

test("a desktop config's gateway object is read with the servers, its tokens from the environment", () => {
  const path = written(`{
  "mcpServers": { "one": { "command": "node", "args": ["x.js"] } },
  "gateway": {
    "tokens": { "ci": { "token": "\${CI_TOKEN}", "scopes": ["read"] } },
    "policy": { "default": "deny", "rules": [ { "allow": { "upstream": "one" }, "for": { "token": "ci" } } ] },
    "limits": [ { "rate": 5, "per": "minute", "by": "principal+tool" }, { "concurrency": 3, "upstream": "one" } ],
    "admin": { "token": ["ci"] }
  }
}
`)
  const config = readGatewayConfig(path, { env: { CI_TOKEN: 'ci-token-0123456789abcdef' } })
  expect(config.upstreams.map((upstream) => upstream.name)).toEqual(['one'])
  expect(config.controls).toEqual({
    tokens: [{ name: 'ci', token: 'ci-token-0123456789abcdef', scopes: ['read'], claims: {} }],
    policy: {
      default: 'deny',
      rules: [{ effect: 'allow', what: { upstream: ['one'] }, for: { token: ['ci'] } }],
    },
    limits: [
      { kind: 'rate', rate: 5, perSeconds: 60, burst: 5, by: 'principal+tool' },
      { kind: 'concurrency', concurrency: 3, upstream: ['one'] },
    ],
    admin: { token: ['ci'] },
  })
})

test('redaction hides secrets by name and by shape, and keeps the rest', () => {
  expect(
    redact({
      query: 'weather',
      password: 'hunter2',
      nested: {
        Authorization: 'x',
        items: ['Bearer abc', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln', 'plain'],
      },
    }),
  ).toEqual({
    query: 'weather',
    password: '[redacted]',
    nested: { Authorization: '[redacted]', items: ['[redacted]', '[redacted]', 'plain'] },
  })
})

test('a shared store that cannot be reached lets calls through rather than refusing them all', async () => {
  const failing = {
    kind: 'redis',
    takeTokens: () => Promise.reject(new Error('the store is away')),
  } as unknown as import('@mcp-kit/server').Store
  const limiter = createLimiter(
    [{ kind: 'rate', rate: 1, perSeconds: 60, burst: 1, by: 'principal' }],
    failing,
  )
  const call = { upstream: 'one', name: 'one__add', authInfo: undefined }
  expect(await limiter.admit(call)).toBeUndefined()
  expect(await limiter.admit(call)).toBeUndefined()
})
