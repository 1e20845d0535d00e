// The workspace's collections: the files of the `--collections` directory with their saved steps,
// a step removed, a file run as `mcp-kit test` runs it with pass or fail per step. Every string
// shown comes from files and servers: rendered as text, never as markup.

import { useEffect, useState } from 'preact/hooks'
import { api } from '../api.ts'
import { type Check, CheckFields, checkBody, checkOf } from './check-fields.tsx'

export interface SavedStep {
  index: number
  name: string
  server: string
  line: number
  operation: { kind: string; name?: string; uri?: string; list?: string }
  expect?: Record<string, unknown>
}

export interface CollectionFile {
  file: string
  name: string
  steps: SavedStep[]
  problems?: string[]
}

interface StepOutcome {
  index: number
  name: string
  status: 'passed' | 'failed' | 'error' | 'skipped'
  durationMs: number
  skipped?: string
  failures: Array<{ assertion: string; message: string; path?: string }>
}

interface RunOutcome {
  file: string
  passed: boolean
  durationMs: number
  steps: StepOutcome[]
  unreachable: Array<{ server: string; message: string }>
}

// The list is shared by this panel and the tools' save form: one copy, its readers told of changes.
let listing: { directory: string; collections: CollectionFile[] } | undefined
const readers = new Set<() => void>()

export async function reloadCollections(): Promise<void> {
  listing = await api<typeof listing>('GET', '/api/collections')
  for (const reader of readers) reader()
}

export function useCollections() {
  const [, setTick] = useState(0)
  useEffect(() => {
    const reader = () => setTick((tick) => tick + 1)
    readers.add(reader)
    if (listing === undefined) void reloadCollections().catch(() => {})
    return () => {
      readers.delete(reader)
    }
  }, [])
  return listing
}

function describeStep(step: SavedStep): string {
  const operation = step.operation
  const what =
    operation.kind === 'call'
      ? `call ${operation.name}`
      : operation.kind === 'read'
        ? `read ${operation.uri}`
        : operation.kind === 'prompt'
          ? `prompt ${operation.name}`
          : `list ${operation.list}`
  return `${what} on ${step.server} — expects ${describeExpect(step.expect)}`
}

/** What a step checks, in a few words (a JSON assertion by its path and what it wants there). */
function describeExpect(expect: Record<string, unknown> | undefined): string {
  const parts = Object.entries(expect ?? {}).flatMap(([key, value]) => {
    if (key === 'error') return [value === false ? 'success' : 'an error']
    if (key !== 'json' || !Array.isArray(value)) return [key]
    return value.map((each: Record<string, unknown>) => {
      const wanted = Object.entries(each).find(([name]) => name !== 'path')
      return wanted === undefined
        ? String(each.path)
        : `${String(each.path)} ${wanted[0]} ${JSON.stringify(wanted[1])}`
    })
  })
  return parts.length === 0 ? 'success' : parts.join('; ')
}

/** Changes what a saved step checks (its other expectations stay). */
function ChangeCheck({
  file,
  step,
  onError,
}: {
  file: string
  step: SavedStep
  onError: (message: string) => void
}) {
  const [check, setCheck] = useState<Check>(() => checkOf(step.expect))
  const label = `step ${step.index + 1} of ${file}`
  async function apply(event: Event) {
    event.preventDefault()
    try {
      await api('POST', '/api/collections/expect', { file, index: step.index, check: checkBody(check) })
      await reloadCollections()
    } catch (error) {
      onError((error as Error).message)
    }
  }
  return (
    <details class="change-check">
      <summary>Change the check</summary>
      <form class="fields" onSubmit={apply} aria-label={`Check of ${label}`}>
        <CheckFields
          id={`check-${file.replace(/[^A-Za-z0-9_-]/g, '_')}-${step.index}`}
          check={check}
          onChange={setCheck}
        />
        <button type="submit">Apply</button>
      </form>
    </details>
  )
}

function CollectionView({ collection }: { collection: CollectionFile }) {
  const [running, setRunning] = useState(false)
  const [outcome, setOutcome] = useState<RunOutcome>()
  const [error, setError] = useState<string>()
  async function run() {
    setRunning(true)
    setError(undefined)
    setOutcome(undefined)
    try {
      setOutcome(await api<RunOutcome>('POST', '/api/collections/run', { file: collection.file }))
    } catch (failure) {
      setError((failure as Error).message)
    } finally {
      setRunning(false)
    }
  }
  async function remove(index: number) {
    await api('POST', '/api/collections/remove-step', { file: collection.file, index }).catch((failure) =>
      setError((failure as Error).message),
    )
    setOutcome(undefined)
    await reloadCollections()
  }
  const result = (index: number) => outcome?.steps.find((step) => step.index === index)
  return (
    <section class="collection" aria-label={`Collection ${collection.file}`}>
      <h3>
        <code>{collection.file}</code>{' '}
        {outcome && (
          <span class={`badge ${outcome.passed ? 'ok' : 'bad'}`} data-testid="run-verdict">
            {outcome.passed ? 'passed' : 'failed'}
          </span>
        )}
      </h3>
      {collection.problems?.map((problem) => (
        <p class="problems">{problem}</p>
      ))}
      <ol class="saved-steps">
        {collection.steps.map((step) => {
          const done = result(step.index)
          return (
            <li data-testid="saved-step">
              <span class="name">{step.name}</span>{' '}
              {done && (
                <span
                  class={`badge ${done.status === 'passed' ? 'ok' : done.status === 'skipped' ? '' : 'bad'}`}
                >
                  {done.status}
                </span>
              )}
              <div class="muted">{describeStep(step)}</div>
              {done?.failures.map((failure) => (
                <div class="problems">
                  {failure.assertion}: {failure.message}
                </div>
              ))}
              {done?.skipped && <div class="muted">{done.skipped}</div>}
              <ChangeCheck
                key={JSON.stringify(step.expect ?? {})}
                file={collection.file}
                step={step}
                onError={setError}
              />
              <button
                type="button"
                class="small"
                aria-label={`Remove step ${step.index + 1} of ${collection.file}`}
                onClick={() => void remove(step.index)}
              >
                Remove
              </button>
            </li>
          )
        })}
      </ol>
      {outcome?.unreachable.map((each) => (
        <p class="problems">
          {each.server}: {each.message}
        </p>
      ))}
      {error && <p class="problems">{error}</p>}
      <button
        type="button"
        onClick={() => void run()}
        disabled={running || collection.steps.length === 0}
        aria-label={`Run ${collection.file}`}
      >
        {running ? 'Running…' : 'Run'}
      </button>
    </section>
  )
}

export function CollectionsPanel() {
  const current = useCollections()
  return (
    <section class="collections" aria-label="Collections">
      <h2>
        Collections{' '}
        <button type="button" class="small" onClick={() => void reloadCollections()}>
          Reload
        </button>
      </h2>
      {current === undefined ? (
        <p class="muted">Reading…</p>
      ) : (
        <>
          <p class="muted">
            In <code>{current.directory}</code>; <code>mcp-kit test FILE</code> runs them.
          </p>
          {current.collections.length === 0 && (
            <p class="muted">No collection yet: save a call from a tool's form.</p>
          )}
          {current.collections.map((collection) => (
            <CollectionView key={collection.file} collection={collection} />
          ))}
        </>
      )}
    </section>
  )
}
