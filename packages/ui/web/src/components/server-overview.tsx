// A server at a glance: state, protocol era, capabilities, cache hints, schema hash; or, when it
// failed, which step failed, why, its last stderr lines and the fix; the CLI's diagnostics.

import { api } from '../api.ts'
import type { ServerView } from '../types.ts'
import { CopyCommand } from './copy-command.tsx'

export function FailureView({ server }: { server: ServerView }) {
  const failure = server.failure
  if (failure === undefined) return null
  return (
    <section class="failure" aria-label="Why the connection failed" data-testid="failure">
      <h3>
        Failed at <span data-testid="failed-step">{failure.step}</span> ({failure.code}
        {failure.httpStatus ? `, HTTP ${failure.httpStatus}` : ''})
      </h3>
      <p class="pre-line">{failure.message}</p>
      <p>
        <strong>Fix:</strong> {failure.fix}
      </p>
      {failure.stderr.length > 0 && (
        <>
          <h4>The server’s last stderr lines</h4>
          <pre class="stderr" data-testid="stderr">
            {failure.stderr.join('\n')}
          </pre>
        </>
      )}
      <div class="actions">
        <button type="button" onClick={() => void api('POST', `/api/servers/${server.id}/reconnect`)}>
          Reconnect
        </button>
        {failure.step === 'oauth' || failure.httpStatus === 401 ? (
          <button type="button" onClick={() => void api('POST', `/api/servers/${server.id}/login`)}>
            Log in
          </button>
        ) : null}
      </div>
    </section>
  )
}

export function ServerOverview({ server, command }: { server: ServerView; command?: string }) {
  const capabilities = Object.keys(server.capabilities ?? {})
  const hints = Object.entries(server.cacheHints)
  return (
    <div class="overview">
      <FailureView server={server} />
      <dl class="facts">
        <dt>State</dt>
        <dd data-testid="state">{server.state}</dd>
        <dt>Reference</dt>
        <dd>
          <code>{server.reference}</code>
        </dd>
        {server.serverInfo && (
          <>
            <dt>Server</dt>
            <dd>
              {server.serverInfo.name} {server.serverInfo.version}
            </dd>
          </>
        )}
        {server.protocolVersion && (
          <>
            <dt>Protocol</dt>
            <dd data-testid="era">
              {server.protocolVersion} (
              {server.era === 'modern' ? '2026 era, stateless' : '2025 era, session'}) over {server.transport}
            </dd>
          </>
        )}
        <dt>Capabilities</dt>
        <dd>{capabilities.length > 0 ? capabilities.join(', ') : '—'}</dd>
        <dt>Cache hints</dt>
        <dd>
          {hints.length > 0
            ? hints.map(([list, hint]) => `${list}: ${hint.ttlMs / 1000} s ${hint.scope}`).join('; ')
            : '—'}
        </dd>
        <dt>Schema hash</dt>
        <dd>
          <code data-testid="schema-hash">{server.schemaHash ?? '—'}</code>
          {server.profileHash && server.schemaHash && server.profileHash !== server.schemaHash && (
            <span class="badge warn"> differs from @{server.profile}</span>
          )}
        </dd>
        <dt>Offers</dt>
        <dd>
          {server.counts.tools} tools, {server.counts.resources} resources, {server.counts.templates}{' '}
          templates, {server.counts.prompts} prompts
        </dd>
      </dl>
      {server.instructions && (
        <>
          <h4>Instructions</h4>
          <p class="pre-line">{server.instructions}</p>
        </>
      )}
      <CopyCommand command={command} />
      <details>
        <summary>
          Diagnostics ({server.diagnostics.length}) and stderr ({server.stderr.length})
        </summary>
        <pre class="stderr" data-testid="diagnostics">
          {[...server.diagnostics, ...server.stderr.map((line) => `[server] ${line}`)].join('\n')}
        </pre>
      </details>
    </div>
  )
}
