// Drift: the saved profile against the live server, each change classified (breaking,
// non-breaking, behavioural) by @mcp-kit/schema; and the profile brought up to date.

import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import type { ServerView } from '../types.ts'
import { CopyCommand } from './copy-command.tsx'
import { ErrorView } from './result-view.tsx'

interface Change {
  class: string
  kind: string
  tool: string
  message: string
}

interface Drift {
  profile: string
  storedHash: string | null
  liveHash: string
  changes: Change[]
  summary: Record<string, number>
  command: string
  updateCommand: string
}

export function DriftPanel({ server }: { server: ServerView }) {
  const [drift, setDrift] = useState<Drift>()
  const [error, setError] = useState<{ code: string; message: string }>()
  const [updated, setUpdated] = useState<string[]>()
  const [busy, setBusy] = useState(false)
  if (server.profile === undefined)
    return <p class="muted">Drift compares a saved profile with its server; this server is not a profile.</p>
  const load = async () => {
    setBusy(true)
    setError(undefined)
    try {
      setDrift(await api<Drift>('GET', `/api/servers/${server.id}/drift`))
    } catch (failure) {
      setError(failure as { code: string; message: string })
    } finally {
      setBusy(false)
    }
  }
  return (
    <div class="drift">
      <button type="button" onClick={() => void load()} disabled={busy}>
        Compare @{server.profile} with the live server
      </button>
      {error && <ErrorView error={error} />}
      {drift && (
        <>
          <p>
            Stored <code>{drift.storedHash ?? '(none)'}</code>, live <code>{drift.liveHash}</code>
          </p>
          <CopyCommand command={drift.command} />
          {drift.changes.length === 0 ? (
            <p data-testid="drift-none">No changes.</p>
          ) : (
            <table class="diff" data-testid="drift-table">
              <caption>Changes since the profile was saved</caption>
              <thead>
                <tr>
                  <th scope="col">Class</th>
                  <th scope="col">Tool</th>
                  <th scope="col">Change</th>
                </tr>
              </thead>
              <tbody>
                {drift.changes.map((change) => (
                  <tr class={`change-${change.class}`}>
                    <td>
                      <span class={`badge ${change.class === 'breaking' ? 'bad' : 'ok'}`}>
                        {change.class}
                      </span>
                    </td>
                    <td>{change.tool}</td>
                    <td>{change.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <button
            type="button"
            class="primary"
            disabled={busy}
            onClick={async () => {
              setBusy(true)
              try {
                const result = await api<{ output: string[] }>(
                  'POST',
                  `/api/servers/${server.id}/drift/update`,
                )
                setUpdated(result.output)
                await load()
              } catch (failure) {
                setError(failure as { code: string; message: string })
              } finally {
                setBusy(false)
              }
            }}
          >
            Update @{drift.profile} to the live tools
          </button>
          <CopyCommand command={drift.updateCommand} />
          {updated && (
            <pre class="text" role="status" data-testid="drift-updated">
              {updated.join('\n')}
            </pre>
          )}
        </>
      )}
    </div>
  )
}
