// The live timeline: every JSON-RPC message of every server as a waterfall, requests paired with
// their responses, notifications inline, a gateway's upstream hop on its call's line; filter,
// search, the message itself on demand; trace files opened and the timeline exported.

import { useMemo, useState } from 'preact/hooks'
import { api } from '../api.ts'
import { useStore } from '../store.ts'
import { type Pair, pairRows } from './pairs.ts'

const shownPairs = 400

function Bar({ pair, t0, span }: { pair: Pair; t0: number; span: number }) {
  const left = ((pair.start - t0) / span) * 100
  const width = pair.end === undefined ? 0 : Math.max(((pair.end - pair.start) / span) * 100, 0.4)
  const hop = pair.hop
  return (
    <div class="bar-track" aria-hidden="true">
      <div
        class={`bar ${pair.kind}${pair.error ? ' error' : ''}${pair.end === undefined && pair.kind !== 'notification' ? ' pending' : ''}`}
        style={{
          left: `${Math.min(left, 99.6)}%`,
          width: pair.kind === 'notification' ? '0.4%' : `${width}%`,
        }}
      />
      {hop && pair.end !== undefined && (
        <div
          class="bar hop"
          style={{
            left: `${Math.max(((pair.end - hop.latencyMs - t0) / span) * 100, left)}%`,
            width: `${Math.max((hop.latencyMs / span) * 100, 0.4)}%`,
          }}
        />
      )}
    </div>
  )
}

export function TimelinePanel() {
  const store = useStore()
  const [server, setServer] = useState('all')
  const [search, setSearch] = useState('')
  const [notifications, setNotifications] = useState(true)
  const [open, setOpen] = useState<string>()
  const [imported, setImported] = useState<string>()
  const pairs = useMemo(() => pairRows(store.timeline), [store.timeline])
  const needle = search.trim().toLowerCase()
  const visible = pairs
    .filter((pair) => server === 'all' || pair.serverId === server)
    .filter((pair) => notifications || pair.kind !== 'notification')
    .filter(
      (pair) =>
        needle === '' ||
        `${pair.method} ${pair.name} ${pair.server}`.toLowerCase().includes(needle) ||
        JSON.stringify([pair.request, pair.response]).toLowerCase().includes(needle),
    )
    .slice(-shownPairs)
  const t0 = Math.min(...visible.map((pair) => pair.start))
  const span = Math.max(1, Math.max(...visible.map((pair) => pair.end ?? pair.start)) - t0)
  const sources = [...new Set(pairs.map((pair) => pair.serverId))]
  const label = (id: string) =>
    store.servers.find((each) => each.id === id)?.name ??
    pairs.find((pair) => pair.serverId === id)?.server ??
    id
  return (
    <section class="timeline" aria-label="Timeline">
      <div class="toolbar">
        <h2>Timeline</h2>
        <label for="timeline-server">Server</label>
        <select
          id="timeline-server"
          value={server}
          onChange={(event) => setServer((event.target as HTMLSelectElement).value)}
        >
          <option value="all">all</option>
          {sources.map((id) => (
            <option value={id}>{label(id)}</option>
          ))}
        </select>
        <label for="timeline-search">Search</label>
        <input
          id="timeline-search"
          type="search"
          value={search}
          onInput={(event) => setSearch((event.target as HTMLInputElement).value)}
        />
        <label class="inline">
          <input
            type="checkbox"
            checked={notifications}
            onChange={(event) => setNotifications((event.target as HTMLInputElement).checked)}
          />{' '}
          notifications
        </label>
        <label class="file-button">
          Open trace…
          <input
            type="file"
            accept=".ndjson,.jsonl,.json,.txt"
            onChange={async (event) => {
              const file = (event.target as HTMLInputElement).files?.[0]
              if (!file) return
              const result = await api<{ rows: number; skipped: number }>('POST', '/api/timeline/import', {
                name: file.name,
                text: await file.text(),
              })
              setImported(
                `${file.name}: ${result.rows} entries${result.skipped ? `, ${result.skipped} lines skipped` : ''}`,
              )
            }}
          />
        </label>
        <a href="/api/timeline.ndjson" download="mcp-kit-ui-trace.ndjson">
          Export trace
        </a>
        {imported && <span role="status">{imported}</span>}
      </div>
      <ol class="waterfall" data-testid="timeline">
        {visible.map((pair) => (
          <li key={pair.key} class={`row ${pair.kind}`} data-method={pair.method}>
            <button
              type="button"
              class="row-head"
              aria-expanded={open === pair.key}
              onClick={() => setOpen(open === pair.key ? undefined : pair.key)}
            >
              <span class="who">
                {label(pair.serverId)}
                {pair.app ? ' ⇄ view' : ''}
              </span>
              <span class="arrow">
                {pair.kind === 'server-request' ? '←' : pair.kind === 'notification' ? '•' : '→'}
              </span>
              <span class="method">{pair.method}</span>
              <span class="name">{pair.name}</span>
              <span class="latency">
                {pair.end !== undefined && pair.kind !== 'notification'
                  ? `${Math.round(pair.end - pair.start)} ms`
                  : ''}
              </span>
              {pair.hop && (
                <span class="hop-label" data-testid="hop">
                  ⤷ {pair.hop.upstream}: {pair.hop.method} {pair.hop.name ?? ''} {pair.hop.latencyMs} ms
                </span>
              )}
              <Bar pair={pair} t0={t0} span={span} />
            </button>
            {open === pair.key && (
              <div class="row-detail">
                <pre class="json">{JSON.stringify(pair.request, null, 2)}</pre>
                {pair.response !== undefined && (
                  <pre class="json">{JSON.stringify(pair.response, null, 2)}</pre>
                )}
              </div>
            )}
          </li>
        ))}
        {visible.length === 0 && <li class="muted">No messages yet.</li>}
      </ol>
    </section>
  )
}
