// The admin view of an mcp-kit gateway, for a server over HTTP: its upstreams' health (up or down,
// the last error) and the per-tool figures (calls, errors, latency), read again every two seconds
// while shown. Names and errors come from the gateway: rendered as text.

import { useEffect, useState } from 'preact/hooks'
import { api } from '../api.ts'
import type { ServerView } from '../types.ts'

interface Upstream {
  name: string
  up: boolean
  state: string
  restarts: number
  tools: number
  protocolVersion?: string
  error?: string
}

interface Figure {
  upstream: string
  method: string
  name: string
  calls: number
  errors: number
  p50_ms?: number
  p95_ms?: number
  p99_ms?: number
}

type Status =
  | { available: true; url: string; upstreams: Upstream[]; calls: Figure[]; at: string }
  | { available: false; reason: string; message: string }

const everyMs = 2000

const ms = (value: number | undefined) => (value === undefined ? '—' : `${value} ms`)

export function GatewayPanel({ server }: { server: ServerView }) {
  const [status, setStatus] = useState<Status>()
  const http = server.spec?.transport === 'http'
  useEffect(() => {
    if (!http || server.state !== 'connected') return
    let stopped = false
    let timer: number | undefined
    const read = async () => {
      const next = await api<Status>('GET', `/api/servers/${server.id}/gateway-status`).catch(
        (error: Error): Status => ({ available: false, reason: 'error', message: error.message }),
      )
      if (stopped) return
      setStatus(next)
      // A server that is no gateway is asked once; a gateway, again and again.
      if (next.available || next.reason === 'unreachable') timer = window.setTimeout(read, everyMs)
    }
    void read()
    return () => {
      stopped = true
      window.clearTimeout(timer)
    }
  }, [server.id, server.state, http])
  if (!http || status === undefined) return null
  if (!status.available) {
    if (status.reason === 'not-gateway' || status.reason === 'not-http') return null
    return (
      <section class="gateway" aria-label="Gateway status">
        <h3>Gateway</h3>
        <p class="problems">{status.message}</p>
      </section>
    )
  }
  const down = status.upstreams.filter((upstream) => !upstream.up).length
  return (
    <section class="gateway" aria-label="Gateway status">
      <h3>
        Gateway{' '}
        <span class={`badge ${down === 0 ? 'ok' : 'bad'}`}>
          {down === 0 ? 'all upstreams up' : `${down} upstream${down === 1 ? '' : 's'} down`}
        </span>
      </h3>
      <p class="muted">
        Live from <code>{status.url}</code>, every {everyMs / 1000} s.
      </p>
      <table class="figures" aria-label="Upstreams">
        <thead>
          <tr>
            <th scope="col">Upstream</th>
            <th scope="col">Health</th>
            <th scope="col">State</th>
            <th scope="col">Tools</th>
            <th scope="col">Restarts</th>
            <th scope="col">Last error</th>
          </tr>
        </thead>
        <tbody>
          {status.upstreams.map((upstream) => (
            <tr key={upstream.name} data-upstream={upstream.name}>
              <th scope="row">{upstream.name}</th>
              <td>
                <span class={`badge ${upstream.up ? 'ok' : 'bad'}`}>{upstream.up ? 'up' : 'down'}</span>
              </td>
              <td>{upstream.state}</td>
              <td>{upstream.tools}</td>
              <td>{upstream.restarts}</td>
              <td class="error-text">{upstream.error ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {status.calls.length === 0 ? (
        <p class="muted">
          No calls yet (per-tool figures need the gateway's <code>--metrics</code>).
        </p>
      ) : (
        <table class="figures" aria-label="Calls per tool">
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">Upstream</th>
              <th scope="col">Calls</th>
              <th scope="col">Errors</th>
              <th scope="col">p50</th>
              <th scope="col">p95</th>
              <th scope="col">p99</th>
            </tr>
          </thead>
          <tbody>
            {status.calls.map((figure) => (
              <tr key={`${figure.upstream}/${figure.method}/${figure.name}`} data-tool={figure.name}>
                <th scope="row">{figure.name}</th>
                <td>{figure.upstream}</td>
                <td data-figure="calls">{figure.calls}</td>
                <td data-figure="errors">{figure.errors}</td>
                <td>{ms(figure.p50_ms)}</td>
                <td>{ms(figure.p95_ms)}</td>
                <td>{ms(figure.p99_ms)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
