// A server's tools: the list, a form generated from the chosen tool's inputSchema (checked as you
// type by the backend, with the CLI's validation), the call with its progress, task and cancel,
// the result by type, and the command line that does the same.

import { useEffect, useRef, useState } from 'preact/hooks'
import { api, newCallId } from '../api.ts'
import type { Problem } from '../form/fields.tsx'
import { SchemaForm, startValue } from '../form/schema-form.tsx'
import { useStore } from '../store.ts'
import type { ServerView, Tool } from '../types.ts'
import { appUri } from './app-uri.ts'
import { CopyCommand } from './copy-command.tsx'
import { ToolResult } from './result-view.tsx'
import { SaveCall } from './save-call.tsx'

type AppViewType = typeof import('./app-view.tsx').AppView

/** The app view's code, loaded the first time a tool with a view is called (not in the first script). */
function useAppView(wanted: boolean): AppViewType | undefined {
  const [view, setView] = useState<AppViewType>()
  useEffect(() => {
    if (wanted && view === undefined)
      void import('./app-view.tsx').then((module) => setView(() => module.AppView))
  }, [wanted, view])
  return view
}

function ToolForm({
  server,
  tool,
  onOpenLink,
}: {
  server: ServerView
  tool: Tool
  onOpenLink: (uri: string) => void
}) {
  const schema = tool.inputSchema ?? { type: 'object' }
  const [value, setValue] = useState(() => startValue(schema))
  // Checked once the person has changed something (an empty form's problems are no news).
  const [touched, setTouched] = useState(false)
  const [problems, setProblems] = useState<Problem[]>([])
  const [callId, setCallId] = useState<string>()
  const [outcome, setOutcome] = useState<Record<string, unknown>>()
  const [command, setCommand] = useState<string>()
  const [calls, setCalls] = useState(0)
  const AppView = useAppView(outcome?.ok === true && appUri(tool) !== undefined)
  const store = useStore()
  const checkTimer = useRef<number | undefined>(undefined)

  useEffect(() => {
    window.clearTimeout(checkTimer.current)
    if (touched)
      checkTimer.current = window.setTimeout(async () => {
        const check = await api<{ ok: boolean; problems?: Problem[] }>(
          'POST',
          `/api/servers/${server.id}/validate`,
          {
            tool: tool.name,
            json: value,
          },
        ).catch(() => undefined)
        if (check) setProblems(check.ok ? [] : (check.problems ?? []))
      }, 250)
    void api<{ command: string }>('POST', `/api/servers/${server.id}/command`, {
      action: { kind: 'call', tool: tool.name, args: value },
    }).then(
      (answer) => setCommand(answer.command),
      () => {},
    )
    return () => window.clearTimeout(checkTimer.current)
  }, [value, touched, server.id, tool.name])

  async function call(event: Event) {
    event.preventDefault()
    const id = newCallId()
    setCallId(id)
    setOutcome(undefined)
    setCalls((count) => count + 1)
    try {
      setOutcome(
        await api('POST', `/api/servers/${server.id}/call`, { tool: tool.name, callId: id, json: value }),
      )
    } catch (error) {
      const failure = error as { code?: string; message: string; details?: Record<string, unknown> }
      setOutcome({
        ok: false,
        error: { code: failure.code ?? 'internal', message: failure.message, details: failure.details },
      })
      if (Array.isArray(failure.details?.problems)) setProblems(failure.details.problems as Problem[])
    } finally {
      setCallId(undefined)
    }
  }

  const progress = callId === undefined ? undefined : store.progress[callId]
  const task = callId === undefined ? undefined : store.tasks[callId]
  const formId = `tool-${server.id}-${tool.name.replace(/[^A-Za-z0-9_-]/g, '_')}`
  return (
    <form class="tool-form" onSubmit={call} aria-label={`Call ${tool.name}`}>
      <h3>{tool.title ?? tool.name}</h3>
      {tool.description && <p class="description pre-line">{tool.description}</p>}
      <SchemaForm
        id={formId}
        schema={schema}
        value={value}
        onChange={(next) => {
          setTouched(true)
          setValue(next)
        }}
        problems={problems}
      />
      {problems.length > 0 && (
        <div class="problems" role="status" data-testid="problems">
          {problems.length} problem{problems.length === 1 ? '' : 's'}:{' '}
          {problems.map((problem) => `${problem.path || 'arguments'}: ${problem.message}`).join('; ')}
        </div>
      )}
      <div class="actions">
        <button type="submit" class="primary" disabled={callId !== undefined}>
          Call {tool.name}
        </button>
        {callId !== undefined && (
          <button type="button" onClick={() => void api('POST', `/api/calls/${callId}/cancel`)}>
            Cancel
          </button>
        )}
      </div>
      {callId !== undefined && (
        <div class="running" role="status">
          {progress ? (
            <>
              <progress
                aria-label={`progress of ${tool.name}`}
                value={progress.progress}
                max={progress.total ?? undefined}
              />{' '}
              {progress.message ?? `${progress.progress}${progress.total ? ` / ${progress.total}` : ''}`}
            </>
          ) : (
            'calling…'
          )}
          {task && (
            <div data-testid="task">
              task {task.taskId}: {task.status}
              {task.statusMessage ? ` — ${task.statusMessage}` : ''}
            </div>
          )}
        </div>
      )}
      <CopyCommand command={command} />
      <SaveCall serverId={server.id} tool={tool.name} value={value} idPrefix={formId} />
      {outcome && <ToolResult outcome={outcome} onOpenLink={onOpenLink} />}
      {outcome?.ok === true && AppView !== undefined && appUri(tool) !== undefined && (
        <AppView
          key={calls}
          server={server}
          tool={tool}
          input={(outcome.arguments ?? {}) as Record<string, unknown>}
          result={outcome.result}
        />
      )}
    </form>
  )
}

export function ToolsPanel({
  server,
  tools,
  onOpenLink,
}: {
  server: ServerView
  tools: Tool[]
  onOpenLink: (uri: string) => void
}) {
  const [chosen, setChosen] = useState<string>()
  const tool = tools.find((each) => each.name === chosen)
  return (
    <div class="split">
      <ul class="item-list" aria-label="Tools">
        {tools.map((each) => (
          <li key={each.name}>
            <button type="button" aria-current={each.name === chosen} onClick={() => setChosen(each.name)}>
              <span class="name">{each.name}</span>
              {each.title && <span class="muted"> {each.title}</span>}
              {appUri(each) !== undefined && <span class="badge"> app</span>}
            </button>
          </li>
        ))}
        {tools.length === 0 && <li class="muted">No tools.</li>}
      </ul>
      <div class="detail">
        {tool ? (
          <ToolForm key={`${server.id}/${tool.name}`} server={server} tool={tool} onOpenLink={onOpenLink} />
        ) : (
          <p class="muted">Choose a tool.</p>
        )}
      </div>
    </div>
  )
}
