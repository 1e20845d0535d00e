// A server's resources (read one), templates (fill the URI and read) and prompts (arguments, get).

import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import type { Lists, ServerView } from '../types.ts'
import { CompletedField, expandTemplate, templateVariables } from './completions.tsx'
import { CopyCommand } from './copy-command.tsx'
import { ContentItem, ErrorView } from './result-view.tsx'

type Outcome = Record<string, unknown>

function ReadResult({ outcome }: { outcome: Outcome }) {
  if (outcome.ok === false) return <ErrorView error={outcome.error as never} />
  const contents = ((outcome.result as { contents?: unknown[] })?.contents ?? []) as Array<
    Record<string, unknown>
  >
  return (
    <div class="result" data-testid="result">
      {contents.map((item) => (
        <ContentItem item={{ type: 'resource', resource: item }} />
      ))}
    </div>
  )
}

export function useReader(server: ServerView) {
  const [outcome, setOutcome] = useState<Outcome>()
  const [command, setCommand] = useState<string>()
  const read = async (uri: string) => {
    setOutcome(undefined)
    setCommand(
      (
        await api<{ command: string }>('POST', `/api/servers/${server.id}/command`, {
          action: { kind: 'read', uri },
        })
      ).command,
    )
    setOutcome(await api('POST', `/api/servers/${server.id}/read`, { uri }))
  }
  return { outcome, command, read }
}

export function ResourcesPanel({ server, lists }: { server: ServerView; lists: Lists }) {
  const { outcome, command, read } = useReader(server)
  const [uri, setUri] = useState('')
  const [template, setTemplate] = useState<string>()
  const [variables, setVariables] = useState<Record<string, string>>({})
  return (
    <div class="split">
      <div class="item-list-wrap">
        <h3>Resources</h3>
        <ul class="item-list" aria-label="Resources">
          {lists.resources.map((resource) => (
            <li key={resource.uri}>
              <button type="button" onClick={() => void read(resource.uri)}>
                <span class="name">{resource.title ?? resource.name ?? resource.uri}</span>
                <span class="muted"> {resource.uri}</span>
              </button>
            </li>
          ))}
          {lists.resources.length === 0 && (
            <li class="muted">
              {lists.pending?.includes('resources')
                ? 'Listing…'
                : `No resources. ${lists.errors.resources ?? ''}`}
            </li>
          )}
        </ul>
        <h3>Templates</h3>
        <ul class="item-list" aria-label="Resource templates">
          {lists.templates.map((template) => (
            <li key={template.uriTemplate}>
              <button
                type="button"
                onClick={() => {
                  setTemplate(template.uriTemplate)
                  setVariables({})
                  setUri(template.uriTemplate)
                }}
              >
                <span class="name">{template.title ?? template.name ?? template.uriTemplate}</span>
                <span class="muted"> {template.uriTemplate}</span>
              </button>
            </li>
          ))}
          {lists.templates.length === 0 && (
            <li class="muted">{lists.pending?.includes('templates') ? 'Listing…' : 'No templates.'}</li>
          )}
        </ul>
      </div>
      <div class="detail">
        {template && (
          <form
            aria-label={`Fill ${template}`}
            onSubmit={(event) => {
              event.preventDefault()
              void read(expandTemplate(template, variables))
            }}
          >
            <h3>{template}</h3>
            {templateVariables(template).map((variable) => (
              <CompletedField
                server={server}
                reference={{ type: 'ref/resource', uri: template }}
                name={variable.name}
                label={variable.name}
                value={variables[variable.name] ?? ''}
                context={variables}
                onChange={(next) => {
                  const values = { ...variables, [variable.name]: next }
                  setVariables(values)
                  setUri(expandTemplate(template, values))
                }}
              />
            ))}
            <button type="submit">Read {expandTemplate(template, variables)}</button>
          </form>
        )}
        <form
          class="inline-form"
          onSubmit={(event) => {
            event.preventDefault()
            void read(uri)
          }}
        >
          <label for={`read-${server.id}`}>URI</label>
          <input
            id={`read-${server.id}`}
            value={uri}
            onInput={(event) => setUri((event.target as HTMLInputElement).value)}
          />
          <button type="submit">Read</button>
        </form>
        <CopyCommand command={command} />
        {outcome && <ReadResult outcome={outcome} />}
      </div>
    </div>
  )
}

export function PromptsPanel({ server, lists }: { server: ServerView; lists: Lists }) {
  const [chosen, setChosen] = useState<string>()
  const [values, setValues] = useState<Record<string, string>>({})
  const [outcome, setOutcome] = useState<Outcome>()
  const [command, setCommand] = useState<string>()
  const prompt = lists.prompts.find((each) => each.name === chosen)
  return (
    <div class="split">
      <ul class="item-list" aria-label="Prompts">
        {lists.prompts.map((each) => (
          <li key={each.name}>
            <button
              type="button"
              aria-current={each.name === chosen}
              onClick={() => {
                setChosen(each.name)
                setValues({})
                setOutcome(undefined)
              }}
            >
              <span class="name">{each.name}</span>
              {each.title && <span class="muted"> {each.title}</span>}
            </button>
          </li>
        ))}
        {lists.prompts.length === 0 && (
          <li class="muted">
            {lists.pending?.includes('prompts') ? 'Listing…' : `No prompts. ${lists.errors.prompts ?? ''}`}
          </li>
        )}
      </ul>
      <div class="detail">
        {prompt ? (
          <form
            onSubmit={async (event) => {
              event.preventDefault()
              setCommand(
                (
                  await api<{ command: string }>('POST', `/api/servers/${server.id}/command`, {
                    action: { kind: 'prompt', name: prompt.name, args: values },
                  })
                ).command,
              )
              setOutcome(
                await api('POST', `/api/servers/${server.id}/prompt`, {
                  name: prompt.name,
                  arguments: values,
                }),
              )
            }}
          >
            <h3>{prompt.title ?? prompt.name}</h3>
            {prompt.description && <p class="description">{prompt.description}</p>}
            {(prompt.arguments ?? []).map((argument) => (
              <>
                <CompletedField
                  server={server}
                  reference={{ type: 'ref/prompt', name: prompt.name }}
                  name={argument.name}
                  label={argument.name}
                  required={argument.required}
                  value={values[argument.name] ?? ''}
                  context={values}
                  onChange={(next) => setValues({ ...values, [argument.name]: next })}
                />
                {argument.description && <div class="hint">{argument.description}</div>}
              </>
            ))}
            <button type="submit" class="primary">
              Get {prompt.name}
            </button>
            <CopyCommand command={command} />
            {outcome &&
              (outcome.ok === false ? (
                <ErrorView error={outcome.error as never} />
              ) : (
                <div class="result" data-testid="result">
                  {(
                    ((outcome.result as { messages?: unknown[] })?.messages ?? []) as Array<
                      Record<string, unknown>
                    >
                  ).map((message) => (
                    <div class="prompt-message">
                      <strong>{String(message.role)}</strong>
                      <ContentItem item={(message.content ?? {}) as Record<string, unknown>} />
                    </div>
                  ))}
                </div>
              ))}
          </form>
        ) : (
          <p class="muted">Choose a prompt.</p>
        )}
      </div>
    </div>
  )
}
