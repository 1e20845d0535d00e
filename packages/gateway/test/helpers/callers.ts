// The callers of the isolation tests: two identities (two OAuth users of a real authorization
// server, or two clients of one static token) and the official SDK clients of both protocol eras
// as the gateway's clients, each recording the questions and log messages it was sent.

import type { RunningAuthServer } from '@mcp-kit/fixtures/auth-server'
import { obtainToken } from '@mcp-kit/fixtures/auth-server'
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpTransportV2,
} from '@modelcontextprotocol/client'
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { expect } from 'vitest'
import { eventually } from './gateways.js'

/** What one caller saw. */
export interface Seen {
  questions: string[]
  logs: string[]
}

export function nothingSeen(): Seen {
  return { questions: [], logs: [] }
}

export interface Caller {
  who: string
  pin: string
  headers: Record<string, string>
}

export const token = 'static-token-for-the-isolation-tests'

export interface Identity {
  /** The gateway's HTTP server options (its auth). */
  serve(): Record<string, unknown>
  callers(gatewayUrl: string): Promise<[Caller, Caller]>
}

export function identities(authServer: () => RunningAuthServer): Record<string, Identity> {
  return {
    'two OAuth users': {
      serve: () => ({ auth: { issuer: authServer().issuer } }),
      callers: async (url) => {
        const [alice, bob] = await Promise.all(
          ['alice', 'bob'].map((login) => obtainToken(authServer().issuer, { resource: url, login })),
        )
        return [
          { who: 'alice', pin: '1111', headers: { authorization: `Bearer ${alice?.access_token}` } },
          { who: 'bob', pin: '2222', headers: { authorization: `Bearer ${bob?.access_token}` } },
        ]
      },
    },
    'two clients of one static token': {
      serve: () => ({ token }),
      callers: async () => [
        { who: 'alice', pin: '1111', headers: { authorization: `Bearer ${token}` } },
        { who: 'bob', pin: '2222', headers: { authorization: `Bearer ${token}` } },
      ],
    },
  }
}

export interface Opened {
  /** Calls `bank__<tool>` (default `pin`) for `who`; the result's text. */
  call(who: string, tool?: string): Promise<string>
  close(): Promise<void>
}

export type Answer = (message: string) => Promise<Record<string, unknown>>

export type Open = (
  url: string,
  headers: Record<string, string>,
  seen: Seen,
  answer: Answer,
) => Promise<Opened>

/** Clients of both eras; `answer` answers each elicitation, `seen` records questions and logs. */
export const clients: Record<string, Open> = {
  'SDK v1 clients (2025-11-25 sessions)': async (url, headers, seen, answer) => {
    const client = new ClientV1({ name: 'v1', version: '1.0.0' }, { capabilities: { elicitation: {} } })
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      seen.questions.push(request.params.message)
      return (await answer(request.params.message)) as never
    })
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      seen.logs.push(String(notification.params.data))
    })
    await client.connect(new HttpTransportV1(new URL(url), { requestInit: { headers } }))
    return {
      call: async (who, tool = 'pin') =>
        text(await client.callTool({ name: `bank__${tool}`, arguments: { who } })),
      close: () => client.close(),
    }
  },
  'SDK v2 clients (2026-07-28 calls)': async (url, headers, seen, answer) => {
    const client = new ClientV2(
      { name: 'v2', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } },
    )
    client.setRequestHandler('elicitation/create', async (request) => {
      const message = (request.params as { message: string }).message
      seen.questions.push(message)
      return (await answer(message)) as never
    })
    client.setNotificationHandler('notifications/message', (notification) => {
      seen.logs.push(String(notification.params.data))
    })
    await client.connect(new HttpTransportV2(new URL(url), { requestInit: { headers } }))
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
    return {
      call: async (who, tool = 'pin') =>
        text(await client.callTool({ name: `bank__${tool}`, arguments: { who } })),
      close: () => client.close(),
    }
  },
}

export function text(result: unknown): string {
  const content = (result as { content?: Array<{ text?: string }> }).content ?? []
  return content.map((item) => item.text ?? '').join('')
}

/** Answers hold until both callers were asked (or 5 s passed), so that both calls are in flight. */
export function pinAnswers(pin: string, asked: { count: number }): Answer {
  return async () => {
    asked.count += 1
    await eventually(() => asked.count >= 2, 5000).catch(() => {})
    return { action: 'accept', content: { pin } }
  }
}

/** Answers at once with `pin`. */
export function answerWith(pin: string): Answer {
  return async () => ({ action: 'accept', content: { pin } })
}
