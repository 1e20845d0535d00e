// The workspace's servers: the list with each one's state and era, and the ways to add one — a
// reference, a profile, a command line, or a desktop client's config pasted in.

import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import type { ServerView } from '../types.ts'

export function AddServer({ onAdded }: { onAdded: (id: string) => void }) {
  const [target, setTarget] = useState('')
  const [config, setConfig] = useState('')
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState<string>()
  return (
    <div class="add-server">
      <form
        onSubmit={async (event) => {
          event.preventDefault()
          if (target.trim() === '') return
          setBusy(true)
          setMessage(undefined)
          try {
            const server = await api<ServerView>('POST', '/api/servers', { target })
            setTarget('')
            onAdded(server.id)
          } catch (error) {
            setMessage((error as Error).message)
          } finally {
            setBusy(false)
          }
        }}
      >
        <label for="add-target">Add a server</label>
        <input
          id="add-target"
          data-empty={target === '' ? 'true' : 'false'}
          placeholder="@profile, mcp+npx://pkg, mcp+http://host/mcp, or node server.js"
          value={target}
          onInput={(event) => setTarget((event.target as HTMLInputElement).value)}
        />
        <button type="submit" disabled={busy}>
          {busy ? 'Connecting…' : 'Connect'}
        </button>
      </form>
      <details>
        <summary>Import a desktop client’s config</summary>
        <form
          onSubmit={async (event) => {
            event.preventDefault()
            try {
              const result = await api<{ added: string[]; skipped: Array<{ name: string; reason: string }> }>(
                'POST',
                '/api/servers/import',
                { text: config },
              )
              setMessage(
                `${result.added.length} added${result.skipped.length ? `; skipped ${result.skipped.map((each) => `${each.name} (${each.reason})`).join(', ')}` : ''}`,
              )
              setConfig('')
            } catch (error) {
              setMessage((error as Error).message)
            }
          }}
        >
          <label for="import-config">claude_desktop_config.json, .vscode/mcp.json, .cursor/mcp.json…</label>
          <textarea
            id="import-config"
            rows={4}
            value={config}
            onInput={(event) => setConfig((event.target as HTMLTextAreaElement).value)}
          />
          <button type="submit">Import</button>
        </form>
      </details>
      {message && (
        <p class="pre-line" role="status">
          {message}
        </p>
      )}
    </div>
  )
}

export function ServerList({
  servers,
  selected,
  onSelect,
  loaded,
}: {
  loaded: boolean
  servers: ServerView[]
  selected: string | undefined
  onSelect: (id: string) => void
}) {
  return (
    <ul class="server-list" aria-label="Servers" aria-busy={!loaded}>
      {servers.map((server) => (
        <li key={server.id}>
          <button
            type="button"
            aria-current={server.id === selected}
            onClick={() => onSelect(server.id)}
            data-server={server.id}
          >
            <span class={`dot ${server.state}`} aria-hidden="true" />
            <span class="name">{server.name}</span>
            <span class="muted">
              {' '}
              {server.state}
              {server.era ? ` · ${server.era === 'modern' ? '2026' : '2025'}` : ''}
            </span>
          </button>
        </li>
      ))}
      {servers.length === 0 && <li class="muted">No servers yet.</li>}
    </ul>
  )
}
