// The small pieces every field of a generated form shows: its hint (description and constraints),
// its problems, the ids that tie them to the control, and the JSON editor for schemas without a
// widget of their own.

import { useState } from 'preact/hooks'
import type { Schema } from '../types.ts'

export interface Problem {
  path: string
  message: string
}

export interface FieldProps {
  id: string
  label: string
  schema: unknown
  root: Schema
  value: unknown
  onChange: (value: unknown) => void
  required: boolean
  /** Where the field is, as validation problems name it (`items[2].name`). */
  path: string
  problems: readonly Problem[]
}

export function Hint({ schema, id }: { schema: Schema; id: string }) {
  const constraints = [
    typeof schema.minimum === 'number' ? `≥ ${schema.minimum}` : '',
    typeof schema.maximum === 'number' ? `≤ ${schema.maximum}` : '',
    typeof schema.minLength === 'number' ? `at least ${schema.minLength} characters` : '',
    typeof schema.maxLength === 'number' ? `at most ${schema.maxLength} characters` : '',
    typeof schema.pattern === 'string' ? `pattern ${schema.pattern}` : '',
    typeof schema.format === 'string' ? `format ${schema.format}` : '',
    typeof schema.minItems === 'number' ? `at least ${schema.minItems} items` : '',
  ].filter(Boolean)
  const description = typeof schema.description === 'string' ? schema.description : ''
  if (description === '' && constraints.length === 0) return null
  return (
    <div class="hint" id={`${id}-hint`}>
      {description}
      {constraints.length > 0 && <span class="constraints"> ({constraints.join(', ')})</span>}
    </div>
  )
}

export function Errors({ problems, path, id }: { problems: readonly Problem[]; path: string; id: string }) {
  const mine = problems.filter((problem) => problem.path === path)
  if (mine.length === 0) return null
  return (
    <div class="field-error" id={`${id}-error`} role="alert">
      {mine.map((problem) => problem.message).join('; ')}
    </div>
  )
}

export function describedBy(id: string, problems: readonly Problem[], path: string): string {
  return [`${id}-hint`, problems.some((problem) => problem.path === path) ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ')
}

export function JsonField(props: FieldProps & { schema: Schema }) {
  const { id, value, onChange } = props
  const [text, setText] = useState(value === undefined ? '' : JSON.stringify(value, null, 2))
  const [bad, setBad] = useState<string>()
  return (
    <textarea
      id={id}
      class="json"
      rows={3}
      value={text}
      aria-invalid={bad !== undefined}
      aria-describedby={describedBy(id, props.problems, props.path)}
      onInput={(event) => {
        const next = (event.target as HTMLTextAreaElement).value
        setText(next)
        if (next.trim() === '') {
          setBad(undefined)
          onChange(undefined)
          return
        }
        try {
          onChange(JSON.parse(next))
          setBad(undefined)
        } catch (error) {
          setBad((error as Error).message)
        }
      }}
      placeholder="JSON"
    />
  )
}
