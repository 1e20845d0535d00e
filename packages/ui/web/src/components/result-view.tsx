// A tool, resource or prompt result rendered by type: text (as text, or as markdown on request),
// images and audio from their data, embedded resources, resource links, structuredContent; and an
// error with mcp-kit's code.

import { useState } from 'preact/hooks'
import type { ApiErrorView } from '../types.ts'
import { Markdown } from './markdown.tsx'

type Item = Record<string, unknown>

const imageTypes = /^image\/(?:png|jpeg|gif|webp|svg\+xml|avif|bmp)$/
const audioTypes = /^audio\/[a-z0-9.+-]+$/

function dataUrl(mimeType: unknown, data: unknown, allowed: RegExp): string | undefined {
  if (typeof mimeType !== 'string' || typeof data !== 'string' || !allowed.test(mimeType)) return undefined
  if (!/^[A-Za-z0-9+/=\s]*$/.test(data)) return undefined
  return `data:${mimeType};base64,${data}`
}

function TextBlock({ text }: { text: string }) {
  const [asMarkdown, setAsMarkdown] = useState(false)
  return (
    <div class="text-item">
      <button
        type="button"
        class="small"
        aria-pressed={asMarkdown}
        onClick={() => setAsMarkdown(!asMarkdown)}
      >
        {asMarkdown ? 'Plain text' : 'Markdown'}
      </button>
      {asMarkdown ? <Markdown text={text} /> : <pre class="text">{text}</pre>}
    </div>
  )
}

function ResourceContents({ resource }: { resource: Item }) {
  const image = dataUrl(resource.mimeType, resource.blob, imageTypes)
  return (
    <div class="embedded">
      <div class="muted">
        resource <code>{String(resource.uri ?? '')}</code>{' '}
        {typeof resource.mimeType === 'string' ? resource.mimeType : ''}
      </div>
      {typeof resource.text === 'string' ? (
        <TextBlock text={resource.text} />
      ) : image ? (
        <img src={image} alt={`resource ${String(resource.uri ?? '')}`} />
      ) : typeof resource.blob === 'string' ? (
        <div class="muted">{resource.blob.length} base64 characters</div>
      ) : null}
    </div>
  )
}

export function ContentItem({ item, onOpenLink }: { item: Item; onOpenLink?: (uri: string) => void }) {
  switch (item.type) {
    case 'text':
      return <TextBlock text={String(item.text ?? '')} />
    case 'image': {
      const url = dataUrl(item.mimeType, item.data, imageTypes)
      return url ? (
        <img class="result-image" src={url} alt={`sent by the server as ${String(item.mimeType)}`} />
      ) : (
        <div>image ({String(item.mimeType)})</div>
      )
    }
    case 'audio': {
      const url = dataUrl(item.mimeType, item.data, audioTypes)
      return url ? (
        // biome-ignore lint/a11y/useMediaCaption: audio made by a server comes without captions
        <audio controls src={url} aria-label="audio from the server" />
      ) : (
        <div>audio ({String(item.mimeType)})</div>
      )
    }
    case 'resource':
      return <ResourceContents resource={(item.resource ?? {}) as Item} />
    case 'resource_link':
      return (
        <div class="embedded">
          link to <code>{String(item.uri ?? '')}</code>{' '}
          {typeof item.name === 'string' ? `(${item.name})` : ''}
          {onOpenLink && typeof item.uri === 'string' && (
            <button type="button" class="small" onClick={() => onOpenLink(item.uri as string)}>
              Read
            </button>
          )}
        </div>
      )
    default:
      return <pre class="json">{JSON.stringify(item, null, 2)}</pre>
  }
}

export function ErrorView({ error }: { error: ApiErrorView }) {
  const problems = (error.details?.problems ?? []) as Array<{ path: string; message: string }>
  return (
    <div class="error-box" role="alert">
      <strong>{error.code}</strong>: <span class="pre-line">{error.message}</span>
      {problems.length > 0 && (
        <ul>
          {problems.map((problem) => (
            <li>
              <code>{problem.path || '(arguments)'}</code> {problem.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

export function ToolResult({ outcome, onOpenLink }: { outcome: Item; onOpenLink?: (uri: string) => void }) {
  if (outcome.ok === false) {
    const mismatch = outcome.mismatch as { structuredContent?: unknown; outputSchema?: unknown } | undefined
    return (
      <div class="result" data-testid="result">
        <ErrorView error={outcome.error as ApiErrorView} />
        {mismatch && (
          <div class="mismatch" data-testid="output-mismatch">
            <h4>structuredContent (does not match the outputSchema)</h4>
            <pre class="json">{JSON.stringify(mismatch.structuredContent, null, 2)}</pre>
            <h4>outputSchema</h4>
            <pre class="json">{JSON.stringify(mismatch.outputSchema, null, 2)}</pre>
          </div>
        )}
      </div>
    )
  }
  const result = (outcome.result ?? {}) as Item
  const content = (Array.isArray(result.content) ? result.content : []) as Item[]
  return (
    <div class={`result${result.isError ? ' is-error' : ''}`} data-testid="result">
      <div class="muted">
        {result.isError ? 'The tool reported an error (tool_error)' : 'Result'}
        {typeof outcome.latencyMs === 'number' ? ` in ${outcome.latencyMs} ms` : ''}
      </div>
      {content.map((item) => (
        <ContentItem item={item} onOpenLink={onOpenLink} />
      ))}
      {result.structuredContent !== undefined && (
        <>
          <h4>structuredContent {outcome.checked ? '(matches the outputSchema)' : ''}</h4>
          <pre class="json">{JSON.stringify(result.structuredContent, null, 2)}</pre>
        </>
      )}
    </div>
  )
}
