// An MCP App's view for a tool call: framed from the workspace's sandbox (another origin, a
// double iframe, the CSP built from the view's `_meta.ui.csp`), with the host side of the ext-apps
// protocol over postMessage JSON-RPC. Every message either way goes on the timeline.

import { useEffect, useRef, useState } from 'preact/hooks'
import { api } from '../api.ts'
import type { ServerView, Tool } from '../types.ts'
import { initializeResult, type Message, type Opened, type Violation } from './app-host.ts'

export function AppView({
  server,
  tool,
  input,
  result,
}: {
  server: ServerView
  tool: Tool
  input: Record<string, unknown>
  result: unknown
}) {
  const [opened, setOpened] = useState<Opened>()
  const [height, setHeight] = useState(320)
  const [violations, setViolations] = useState<Violation[]>([])
  const [messages, setMessages] = useState<string[]>([])
  const [link, setLink] = useState<{ url: string; answer: (open: boolean) => void }>()
  const [closed, setClosed] = useState(false)
  const frame = useRef<HTMLIFrameElement>(null)
  const teardown = useRef<() => Promise<void>>(async () => {})

  useEffect(() => {
    let alive = true
    void api<Opened>('POST', `/api/servers/${server.id}/app/open`, {
      tool: tool.name,
      hostOrigin: location.origin,
    }).then(
      (answer) => alive && setOpened(answer),
      (error: Error) =>
        alive && setOpened({ ok: false, error: { code: 'internal', message: error.message } } as Opened),
    )
    return () => {
      alive = false
    }
  }, [server.id, tool.name])

  useEffect(() => {
    if (!opened?.ok) return
    const record = (direction: 'sent' | 'received', message: unknown) =>
      void api('POST', `/api/servers/${server.id}/app/record`, { direction, message }).catch(() => {})
    const post = (message: Message) => {
      record('sent', message)
      frame.current?.contentWindow?.postMessage(message, opened.sandboxOrigin)
    }
    let next = 1
    const waiting = new Map<string | number, (message: Message) => void>()
    const request = (method: string, params: Record<string, unknown>) =>
      new Promise<Message>((resolve) => {
        const id = `host-${next++}`
        waiting.set(id, resolve)
        post({ jsonrpc: '2.0', id, method, params })
      })
    const answer = (id: Message['id'], result: unknown) => post({ jsonrpc: '2.0', id, result } as Message)
    const fail = (id: Message['id'], code: number, message: string) =>
      post({ jsonrpc: '2.0', id, error: { code, message } } as Message)
    teardown.current = async () => {
      await Promise.race([request('ui/resource-teardown', {}), new Promise((done) => setTimeout(done, 2000))])
      setClosed(true)
    }

    async function handle(message: Message): Promise<void> {
      const { id, method, params = {} } = message
      if (method === undefined) {
        if (id !== undefined) waiting.get(id)?.(message)
        if (id !== undefined) waiting.delete(id)
        return
      }
      switch (method) {
        case 'ui/notifications/sandbox-proxy-ready':
          post({
            jsonrpc: '2.0',
            method: 'ui/notifications/sandbox-resource-ready',
            params: { view: opened?.view, allow: opened?.allow, csp: opened?.csp },
          })
          return
        case 'ui/initialize':
          if (opened) answer(id, initializeResult(params, opened, tool, frame.current?.clientWidth ?? 600))
          return
        case 'ui/notifications/initialized':
          post({ jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: input } })
          post({
            jsonrpc: '2.0',
            method: 'ui/notifications/tool-result',
            params: result as Record<string, unknown>,
          })
          return
        case 'tools/call': {
          const name = typeof params.name === 'string' ? params.name : ''
          const called = await api<{ ok: boolean; result?: unknown; error?: { message: string } }>(
            'POST',
            `/api/servers/${server.id}/app/call`,
            { name, arguments: params.arguments ?? {} },
          ).catch((error: Error) => ({ ok: false, error: { message: error.message }, result: undefined }))
          if (called.ok) answer(id, called.result)
          else fail(id, -32602, called.error?.message ?? 'the call failed')
          return
        }
        case 'resources/read': {
          const read = await api<{ ok: boolean; result?: unknown; error?: { message: string } }>(
            'POST',
            `/api/servers/${server.id}/read`,
            { uri: typeof params.uri === 'string' ? params.uri : '' },
          ).catch((error: Error) => ({ ok: false, error: { message: error.message }, result: undefined }))
          if (read.ok) answer(id, read.result)
          else fail(id, -32602, read.error?.message ?? 'the read failed')
          return
        }
        case 'ui/open-link': {
          const url = typeof params.url === 'string' ? params.url : ''
          if (!/^https?:\/\//i.test(url)) return fail(id, -32602, 'only http and https links are opened')
          setLink({
            url,
            answer: (open) => {
              setLink(undefined)
              if (open) window.open(url, '_blank', 'noopener,noreferrer')
              answer(id, open ? {} : { isError: true })
            },
          })
          return
        }
        case 'ui/message':
        case 'ui/update-model-context': {
          const content = (params.content ?? []) as Array<{ text?: string }>
          const text = content.map((block) => block.text ?? '[non-text content]').join(' ')
          setMessages((shown) => [
            ...shown.slice(-19),
            `${method === 'ui/message' ? 'message' : 'context'}: ${text}`,
          ])
          answer(id, {})
          return
        }
        case 'ui/request-display-mode':
          answer(id, { mode: 'inline' })
          return
        case 'ui/notifications/size-changed':
          if (typeof params.height === 'number')
            setHeight(Math.min(Math.max(Math.ceil(params.height), 80), 2000))
          return
        case 'ui/notifications/request-teardown':
          void teardown.current()
          return
        case 'mcp-kit/csp-violation':
          setViolations((shown) => [
            ...shown.slice(-49),
            { directive: String(params.directive ?? ''), blockedURI: String(params.blockedURI ?? '') },
          ])
          return
        case 'ping':
          answer(id, {})
          return
        default:
          // ui/log and notifications/message are on the timeline; anything else asked is refused.
          if (id !== undefined) fail(id, -32601, `${method} is not supported by mcp-kit ui`)
      }
    }

    const listener = (event: MessageEvent) => {
      if (event.source !== frame.current?.contentWindow || event.origin !== opened.sandboxOrigin) return
      const message = event.data as Message
      if (typeof message !== 'object' || message === null || message.jsonrpc !== '2.0') return
      record('received', message)
      void handle(message)
    }
    window.addEventListener('message', listener)
    return () => window.removeEventListener('message', listener)
  }, [opened, server.id, tool, input, result])

  const idBase = `app-${server.id}-${tool.name.replace(/[^A-Za-z0-9_-]/g, '_')}`
  if (opened === undefined) return <p class="muted">Opening the app view…</p>
  if (!opened.ok)
    return (
      <p class="field-error" role="alert">
        The app view could not be opened: {opened.error?.message}
      </p>
    )
  return (
    <section class="app-view" aria-label={`App view of ${tool.name}`}>
      <div class="app-head">
        <h4>App view</h4>
        <code>{opened.uri}</code>
        <span class="muted" data-testid="app-origin">
          {opened.sandboxOrigin}
        </span>
        {!closed && (
          <button type="button" class="small" onClick={() => void teardown.current()}>
            Close view
          </button>
        )}
      </div>
      <details>
        <summary>
          Content-Security-Policy{opened.warnings.length > 0 ? ` (${opened.warnings.length} warnings)` : ''}
        </summary>
        <pre class="pre-line">{opened.csp}</pre>
        <ul>
          {opened.warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      </details>
      {link && (
        <div class="notice" role="alertdialog" aria-label="The view asks to open a link">
          The view asks to open <code>{link.url}</code>{' '}
          <button type="button" onClick={() => link.answer(true)}>
            Open
          </button>{' '}
          <button type="button" onClick={() => link.answer(false)}>
            Dismiss
          </button>
        </div>
      )}
      {!closed && (
        <iframe
          ref={frame}
          class={opened.prefersBorder ? 'app-frame bordered' : 'app-frame'}
          title={`${tool.name} app view`}
          src={opened.proxyUrl}
          sandbox="allow-scripts allow-same-origin"
          allow={opened.allow}
          style={{ height: `${height}px` }}
        />
      )}
      {closed && <p class="muted">The view was closed.</p>}
      {messages.length > 0 && <h5 id={`${idBase}-messages`}>Messages from the view</h5>}
      {messages.length > 0 && (
        <ul aria-labelledby={`${idBase}-messages`} data-testid="app-messages">
          {messages.map((text, index) => (
            <li key={index}>{text}</li>
          ))}
        </ul>
      )}
      {violations.length > 0 && <h5 id={`${idBase}-violations`}>Blocked by the view's CSP</h5>}
      {violations.length > 0 && (
        <ul class="violations" aria-labelledby={`${idBase}-violations`} data-testid="csp-violations">
          {violations.map((violation, index) => (
            <li key={index}>
              CSP blocked {violation.directive}: <code>{violation.blockedURI}</code>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
