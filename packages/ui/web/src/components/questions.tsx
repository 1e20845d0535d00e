// The servers' questions, answered here: elicitation forms (generated from the requested schema)
// and URLs to visit, sampling requests answered by the person, and the roots shared with servers.

import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import type { Problem } from '../form/fields.tsx'
import { SchemaForm, startValue } from '../form/schema-form.tsx'
import { useStore } from '../store.ts'
import type { Question, Schema } from '../types.ts'

function answer(question: Question, body: Record<string, unknown>) {
  return api('POST', `/api/questions/${question.id}`, body)
}

function Elicitation({ question, server }: { question: Question; server: string }) {
  const params = question.params
  const schema = (params.requestedSchema ?? { type: 'object', properties: {} }) as Schema
  const [value, setValue] = useState(() => startValue(schema))
  const [problems, setProblems] = useState<Problem[]>([])
  const [refused, setRefused] = useState<string>()
  const url = params.mode === 'url' && typeof params.url === 'string' ? params.url : undefined
  const safe = url !== undefined && /^https?:\/\//i.test(url)
  return (
    <form
      class="question"
      aria-label={`Question from ${server}`}
      onSubmit={(event) => {
        event.preventDefault()
        answer(question, { answer: url ? { action: 'accept' } : { action: 'accept', content: value } }).catch(
          (error: { message: string; details?: { problems?: Problem[] } }) => {
            setRefused(error.message)
            setProblems(error.details?.problems ?? [])
          },
        )
      }}
    >
      <h3>
        {server} asks{question.during ? ` (during ${question.during})` : ''}
      </h3>
      <p class="pre-line">{String(params.message ?? '')}</p>
      {url ? (
        <p>
          Open:{' '}
          {safe ? (
            <a href={url} target="_blank" rel="noopener noreferrer">
              {url}
            </a>
          ) : (
            <code>{url}</code>
          )}
        </p>
      ) : (
        <SchemaForm
          id={`q-${question.id}`}
          schema={schema}
          value={value}
          onChange={setValue}
          problems={problems}
        />
      )}
      {refused && (
        <p class="field-error" role="alert">
          {refused}
        </p>
      )}
      <div class="actions">
        <button type="submit" class="primary">
          {url ? 'Done' : 'Send answer'}
        </button>
        <button type="button" onClick={() => void answer(question, { answer: { action: 'decline' } })}>
          Decline
        </button>
        <button type="button" onClick={() => void answer(question, { answer: { action: 'cancel' } })}>
          Cancel
        </button>
      </div>
    </form>
  )
}

function Sampling({ question, server }: { question: Question; server: string }) {
  const [text, setText] = useState('')
  const messages = (question.params.messages ?? []) as Array<{
    role: string
    content: { type: string; text?: string }
  }>
  return (
    <form
      class="question"
      aria-label={`Sampling request from ${server}`}
      onSubmit={(event) => {
        event.preventDefault()
        void answer(question, {
          answer: {
            role: 'assistant',
            content: { type: 'text', text },
            model: 'a person (mcp-kit ui)',
            stopReason: 'endTurn',
          },
        })
      }}
    >
      <h3>{server} asks for a completion (sampling)</h3>
      {typeof question.params.systemPrompt === 'string' && (
        <p class="muted pre-line">{question.params.systemPrompt}</p>
      )}
      {messages.map((message) => (
        <p class="pre-line">
          <strong>{message.role}:</strong>{' '}
          {message.content?.type === 'text' ? message.content.text : `(${message.content?.type})`}
        </p>
      ))}
      <label for={`sample-${question.id}`}>Your answer, as the assistant</label>
      <textarea
        id={`sample-${question.id}`}
        rows={4}
        value={text}
        onInput={(event) => setText((event.target as HTMLTextAreaElement).value)}
      />
      <div class="actions">
        <button type="submit" class="primary">
          Send
        </button>
        <button
          type="button"
          onClick={() => void answer(question, { refuse: 'the person declined the sampling request' })}
        >
          Decline
        </button>
      </div>
    </form>
  )
}

export function QuestionsPanel() {
  const store = useStore()
  const [roots, setRoots] = useState<string>()
  const nameOf = (id: string) => store.servers.find((server) => server.id === id)?.name ?? id
  return (
    <section class="questions" aria-label="Questions from servers" aria-live="polite">
      <h2>Questions {store.questions.length > 0 && <span class="badge">{store.questions.length}</span>}</h2>
      {store.questions.length === 0 && <p class="muted">No server is asking anything.</p>}
      {store.questions.map((question) =>
        question.kind === 'sample' ? (
          <Sampling key={question.id} question={question} server={nameOf(question.serverId)} />
        ) : (
          <Elicitation key={question.id} question={question} server={nameOf(question.serverId)} />
        ),
      )}
      <details>
        <summary>Roots shared with servers ({store.roots.length})</summary>
        <form
          onSubmit={(event) => {
            event.preventDefault()
            void api('POST', '/api/roots', {
              paths: (roots ?? '').split('\n').filter((line) => line.trim() !== ''),
            })
          }}
        >
          <label for="roots">One directory a line</label>
          <textarea
            id="roots"
            rows={3}
            value={
              roots ??
              store.roots.map((root) => decodeURIComponent(root.uri.replace(/^file:\/\//, ''))).join('\n')
            }
            onInput={(event) => setRoots((event.target as HTMLTextAreaElement).value)}
          />
          <button type="submit">Share these roots</button>
        </form>
      </details>
    </section>
  )
}
