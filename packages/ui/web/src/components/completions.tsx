// Completions from the server (`completion/complete`) for a prompt's arguments and a template's
// variables: a datalist under each field, asked for as you type.

import { useEffect, useRef, useState } from 'preact/hooks'
import { api } from '../api.ts'
import type { ServerView } from '../types.ts'

export type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string }

/** A text field whose suggestions are the server's completions of its argument. */
export function CompletedField({
  server,
  reference,
  name,
  label,
  value,
  context,
  required,
  onChange,
}: {
  server: ServerView
  reference: CompletionRef
  name: string
  label: string
  value: string
  context: Record<string, string>
  required?: boolean
  onChange: (value: string) => void
}) {
  const [values, setValues] = useState<string[]>([])
  const timer = useRef<number | undefined>(undefined)
  const offered = server.capabilities?.completions !== undefined
  const id = `complete-${server.id}-${name.replace(/[^A-Za-z0-9_-]/g, '_')}`
  const ask = (current: string) => {
    if (!offered) return
    window.clearTimeout(timer.current)
    timer.current = window.setTimeout(async () => {
      const others = Object.fromEntries(
        Object.entries(context).filter(([key, each]) => key !== name && each !== ''),
      )
      const answer = await api<{ values: string[] }>('POST', `/api/servers/${server.id}/complete`, {
        ref: reference,
        argument: { name, value: current },
        ...(Object.keys(others).length > 0 ? { context: { arguments: others } } : {}),
      }).catch(() => ({ values: [] }))
      setValues(answer.values.slice(0, 100))
    }, 150)
  }
  useEffect(() => () => window.clearTimeout(timer.current), [])
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {required && (
        <span class="required" aria-hidden="true">
          {' '}
          required
        </span>
      )}
      <input
        id={id}
        list={`${id}-values`}
        value={value}
        aria-required={required}
        onFocus={() => ask(value)}
        onInput={(event) => {
          const next = (event.target as HTMLInputElement).value
          onChange(next)
          ask(next)
        }}
      />
      <datalist id={`${id}-values`} data-testid={`completions-${name}`}>
        {values.map((each) => (
          <option value={each} />
        ))}
      </datalist>
    </div>
  )
}

/** The variables of a URI template (`{id}`, `{+path}`, `{?q}`), in order. */
export function templateVariables(template: string): Array<{ name: string; raw: boolean }> {
  return [...template.matchAll(/\{([+#./;?&]?)([^}]+)\}/g)].flatMap((match) =>
    (match[2] as string)
      .split(',')
      .map((name) => ({ name: name.replace(/\*$|:\d+$/, ''), raw: match[1] === '+' || match[1] === '#' })),
  )
}

/** The URI a template makes with these values (simple and reserved expansion). */
export function expandTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{([+#]?)([^}?&/.;]+)\}/g, (_whole, operator: string, names: string) =>
    names
      .split(',')
      .map((name) => {
        const value = values[name.replace(/\*$|:\d+$/, '')] ?? ''
        return operator === '' ? encodeURIComponent(value) : encodeURI(value)
      })
      .join(','),
  )
}
