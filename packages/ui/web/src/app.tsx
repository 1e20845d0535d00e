// The workspace page: servers on the left, the chosen server's tabs in the middle, the servers'
// questions beside it, the timeline below.

import { useEffect, useState } from 'preact/hooks'
import { api } from './api.ts'
import { CollectionsPanel } from './components/collections-panel.tsx'
import { DriftPanel } from './components/drift-panel.tsx'
import { GatewayPanel } from './components/gateway-panel.tsx'
import { Notice } from './components/notice.tsx'
import { QuestionsPanel } from './components/questions.tsx'
import { PromptsPanel, ResourcesPanel, useReader } from './components/resources-panel.tsx'
import { ContentItem } from './components/result-view.tsx'
import { ServerOverview } from './components/server-overview.tsx'
import { AddServer, ServerList } from './components/servers.tsx'
import { TimelinePanel } from './components/timeline.tsx'
import { ToolsPanel } from './components/tools-panel.tsx'
import { getState, useStore } from './store.ts'
import type { Lists, ServerView } from './types.ts'

const tabs = ['Overview', 'Tools', 'Resources', 'Prompts', 'Drift'] as const
type Tab = (typeof tabs)[number]

function ServerPanel({ server }: { server: ServerView }) {
  const [tab, setTab] = useState<Tab>('Tools')
  const [fetched, setFetched] = useState<Lists>()
  const [command, setCommand] = useState<string>()
  const reader = useReader(server)
  // The lists come with the state and with the events that follow their change (the tools first,
  // the others as they arrive); asked for only when neither brought them.
  const held = useStore().lists[server.id]?.lists
  const lists = server.state === 'connected' ? (held ?? fetched) : undefined
  useEffect(() => {
    if (server.state !== 'connected') {
      setFetched(undefined)
      return
    }
    if (getState().lists[server.id] === undefined)
      void api<Lists>('GET', `/api/servers/${server.id}/lists`).then(setFetched, () => setFetched(undefined))
    void api<{ command: string }>('POST', `/api/servers/${server.id}/command`, {
      action: { kind: 'inspect' },
    }).then(
      (answer) => setCommand(answer.command),
      () => {},
    )
  }, [server.id, server.state, server.schemaHash])
  const shownTab: Tab = server.state === 'failed' ? 'Overview' : tab
  return (
    <section class="server-panel" aria-label={server.name}>
      <header class="server-header">
        <h2>{server.name}</h2>
        <span class={`badge ${server.state}`}>{server.state}</span>
        {server.protocolVersion && <span class="badge">{server.protocolVersion}</span>}
        <button
          type="button"
          class="small"
          onClick={() => void api('POST', `/api/servers/${server.id}/reconnect`)}
        >
          Reconnect
        </button>
        <button type="button" class="small" onClick={() => void api('DELETE', `/api/servers/${server.id}`)}>
          Remove
        </button>
      </header>
      <div class="tabs">
        {tabs.map((each) => (
          <button
            type="button"
            aria-pressed={shownTab === each}
            class="tab"
            onClick={() => setTab(each)}
            disabled={server.state !== 'connected' && each !== 'Overview'}
          >
            {each}
            {each === 'Tools' && ` (${server.counts.tools})`}
          </button>
        ))}
      </div>
      <div class="tab-body">
        {shownTab === 'Overview' && <ServerOverview server={server} command={command} />}
        {shownTab === 'Overview' && <GatewayPanel server={server} />}
        {shownTab === 'Tools' && lists && (
          <ToolsPanel server={server} tools={lists.tools} onOpenLink={(uri) => void reader.read(uri)} />
        )}
        {shownTab === 'Resources' && lists && <ResourcesPanel server={server} lists={lists} />}
        {shownTab === 'Prompts' && lists && <PromptsPanel server={server} lists={lists} />}
        {shownTab === 'Drift' && <DriftPanel server={server} />}
        {server.state === 'connecting' && <p role="status">Connecting…</p>}
        {reader.outcome && shownTab === 'Tools' && (
          <div class="result">
            {(
              ((reader.outcome.result as { contents?: unknown[] })?.contents ?? []) as Array<
                Record<string, unknown>
              >
            ).map((item) => (
              <ContentItem item={{ type: 'resource', resource: item }} />
            ))}
          </div>
        )}
      </div>
    </section>
  )
}

export function App() {
  const store = useStore()
  const [selected, setSelected] = useState<string>()
  const server = store.servers.find((each) => each.id === selected) ?? store.servers[0]
  return (
    <div class="layout">
      <header class="top">
        <h1>mcp-kit ui</h1>
        <span class={`badge ${store.connected ? 'connected' : 'failed'}`}>
          {store.connected ? 'live' : 'offline'}
        </span>
        {store.notices.slice(-1).map((notice) => (
          <span class="notice pre-line" role="status">
            <Notice message={notice.message} />
          </span>
        ))}
      </header>
      <nav class="side" aria-label="Workspace">
        <AddServer onAdded={setSelected} />
        <ServerList
          loaded={store.loaded}
          servers={store.servers}
          selected={server?.id}
          onSelect={setSelected}
        />
      </nav>
      <main class="main">
        {server ? (
          <ServerPanel key={server.id} server={server} />
        ) : (
          <p class="muted">Add a server to begin.</p>
        )}
      </main>
      <aside class="aside">
        <QuestionsPanel />
        <CollectionsPanel />
      </aside>
      <footer class="bottom">
        <TimelinePanel />
      </footer>
    </div>
  )
}
