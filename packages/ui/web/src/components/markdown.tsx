// Markdown from a server rendered as elements, never as HTML: paragraphs, headings, lists, code,
// emphasis and links. A link is a link only to http(s) or mailto; anything else (javascript:,
// data:) stays text. Raw HTML in the source is shown as the text it is.

import type { ComponentChildren } from 'preact'

const safeLink = /^(?:https?:\/\/|mailto:)/i

function inline(text: string): ComponentChildren[] {
  const parts: ComponentChildren[] = []
  const pattern = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*]+\*|_[^_]+_)|(\[[^\]]*\]\([^)\s]*\))/g
  let last = 0
  for (const match of text.matchAll(pattern)) {
    const at = match.index ?? 0
    if (at > last) parts.push(text.slice(last, at))
    const token = match[0]
    if (match[1]) parts.push(<code>{token.slice(1, -1)}</code>)
    else if (match[2]) parts.push(<strong>{token.slice(2, -2)}</strong>)
    else if (match[3]) parts.push(<em>{token.slice(1, -1)}</em>)
    else {
      const close = token.indexOf('](')
      const label = token.slice(1, close)
      const href = token.slice(close + 2, -1)
      parts.push(
        safeLink.test(href) ? (
          <a href={href} rel="noopener noreferrer nofollow" target="_blank">
            {label}
          </a>
        ) : (
          token
        ),
      )
    }
    last = at + token.length
  }
  if (last < text.length) parts.push(text.slice(last))
  return parts
}

export function Markdown({ text }: { text: string }) {
  const blocks: ComponentChildren[] = []
  const lines = text.split('\n')
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string
    if (line.startsWith('```')) {
      const code: string[] = []
      index++
      while (index < lines.length && !(lines[index] as string).startsWith('```'))
        code.push(lines[index++] as string)
      blocks.push(
        <pre>
          <code>{code.join('\n')}</code>
        </pre>,
      )
      continue
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line)
    if (heading) {
      const level = Math.min(6, (heading[1] as string).length + 3)
      const Tag = `h${level}` as 'h4'
      blocks.push(<Tag>{inline(heading[2] as string)}</Tag>)
      continue
    }
    if (/^\s*[-*]\s+/.test(line)) {
      const items: string[] = []
      while (index < lines.length && /^\s*[-*]\s+/.test(lines[index] as string))
        items.push((lines[index++] as string).replace(/^\s*[-*]\s+/, ''))
      index--
      blocks.push(
        <ul>
          {items.map((item) => (
            <li>{inline(item)}</li>
          ))}
        </ul>,
      )
      continue
    }
    if (line.trim() === '') continue
    const paragraph = [line]
    while (
      index + 1 < lines.length &&
      (lines[index + 1] as string).trim() !== '' &&
      !/^(#|```|\s*[-*]\s)/.test(lines[index + 1] as string)
    )
      paragraph.push(lines[++index] as string)
    blocks.push(<p>{inline(paragraph.join(' '))}</p>)
  }
  return <div class="markdown">{blocks}</div>
}
