// @module-tag integration
// A hostile HTTP server cannot drive the CLI's memory up: an endless SSE event, a 200 MB JSON
// result and a 1 GB chunked body each end `mcp-kit cat` with the message-size error (the same as
// over stdio), and the CLI's peak memory stays below its peak against an ordinary server plus
// three times the limit. Keep-alive comments during a call do not keep it past its timeout.

import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { binPath } from '../helpers/helpers.js'

type Mode = 'ordinary' | 'endless-event' | 'huge-json' | 'huge-chunked' | 'keep-alives'
const mebibyte = 1024 * 1024
// The default --max-message-size: what a user gets without asking.
const limit = 16 * mebibyte

function answer(response: ServerResponse, id: unknown, result: Record<string, unknown>): void {
  const body = JSON.stringify({ jsonrpc: '2.0', id, result: { resultType: 'complete', ...result } })
  response.writeHead(200, { 'content-type': 'application/json' })
  response.end(body)
}

/** Writes `total` bytes of `fill` without holding them in memory; stops when the client goes. */
function pour(response: ServerResponse, total: number, fill = 'x'): Promise<void> {
  const chunk = fill.repeat(64 * 1024)
  return new Promise((resolve) => {
    let written = 0
    const next = () => {
      while (written < total && !response.destroyed) {
        written += chunk.length
        if (!response.write(chunk)) return void response.once('drain', next)
      }
      resolve()
    }
    response.once('close', () => resolve())
    next()
  })
}

function hostileServer(mode: () => Mode): Server {
  return createServer((request, response) => {
    let text = ''
    request.on('data', (chunk) => (text += chunk))
    request.on('end', async () => {
      const message = JSON.parse(text) as { id: unknown; method: string }
      if (message.method === 'server/discover') {
        return answer(response, message.id, {
          supportedVersions: ['2026-07-28'],
          capabilities: { tools: {} },
          _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'hostile', version: '1' } },
        })
      }
      if (message.method === 'tools/list') {
        return answer(response, message.id, { tools: [{ name: 'x', inputSchema: { type: 'object' } }] })
      }
      switch (mode()) {
        case 'ordinary':
          return answer(response, message.id, { content: [{ type: 'text', text: 'fine' }] })
        case 'endless-event':
          response.writeHead(200, { 'content-type': 'text/event-stream' })
          response.write('data: {"jsonrpc":"2.0","id":')
          return void (await pour(response, 2 * 1024 * mebibyte))
        case 'huge-json':
          response.writeHead(200, {
            'content-type': 'application/json',
            'content-length': String(200 * mebibyte),
          })
          return void (await pour(response, 200 * mebibyte))
        case 'huge-chunked':
          response.writeHead(200, { 'content-type': 'application/json' })
          return void (await pour(response, 1024 * mebibyte))
        case 'keep-alives': {
          response.writeHead(200, { 'content-type': 'text/event-stream' })
          const timer = setInterval(() => response.write(': keep-alive\n\n'), 100)
          response.once('close', () => clearInterval(timer))
          return
        }
      }
    })
  })
}

/** Runs the CLI, sampling its resident memory; returns its exit, stderr and peak RSS in bytes. */
function runSampled(args: string[]): Promise<{ code: number | null; stderr: string; peak: number }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [binPath, ...args], { stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    let peak = 0
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    const sample = setInterval(() => {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8')
        const match = /VmHWM:\s+(\d+) kB/.exec(status)
        if (match) peak = Math.max(peak, Number(match[1]) * 1024)
      } catch {
        // The process is gone.
      }
    }, 10)
    const kill = setTimeout(() => child.kill('SIGKILL'), 60_000)
    child.on('close', (code) => {
      clearInterval(sample)
      clearTimeout(kill)
      resolve({ code, stderr, peak })
    })
  })
}

describe('a hostile HTTP server', () => {
  let mode: Mode = 'ordinary'
  let server: Server
  let url: string
  let ordinaryPeak = 0
  beforeAll(async () => {
    server = hostileServer(() => mode)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `mcp+http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp?tool=x`
    mode = 'ordinary'
    // The peak against an ordinary server varies by a few MiB from run to run: take the larger of two.
    for (let run = 0; run < 2; run++) {
      const ordinary = await runSampled(['cat', url])
      expect(ordinary.code).toBe(0)
      ordinaryPeak = Math.max(ordinaryPeak, ordinary.peak)
    }
  })
  afterAll(() => {
    server.closeAllConnections()
    server.close()
  })

  test.each(['endless-event', 'huge-json', 'huge-chunked'] as const)(
    '%s: the size error, exit 1, and memory stays bounded',
    async (hostile) => {
      mode = hostile
      const result = await runSampled(['cat', url])
      expect(result.stderr).toMatch(/larger than the 16 MiB limit.*--max-message-size/)
      expect(result.code).toBe(1)
      expect(result.peak).toBeGreaterThan(0)
      expect(result.peak).toBeLessThan(ordinaryPeak + 3 * limit)
      // The flag sets the bound.
      const smaller = await runSampled(['cat', url, '--max-message-size', '1MiB'])
      expect(smaller.stderr).toMatch(/larger than the 1 MiB limit/)
      expect(smaller.code).toBe(1)
    },
  )

  test('keep-alive comments do not keep a call past its timeout', async () => {
    mode = 'keep-alives'
    const result = await runSampled(['cat', url, '--timeout', '1'])
    expect(result.code).toBe(4)
    expect(result.stderr).toMatch(/no response within 1 s \(--timeout\)/)
  })
})
